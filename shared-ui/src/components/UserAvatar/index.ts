export { UserAvatar, avatarInitials, type UserAvatarProps } from './UserAvatar.js';
