import { Avatar, type SxProps, type Theme } from '@mui/material';
import type { User } from '@radar/contracts';

type AvatarUser = Pick<User, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;

/** Initials of first and last name; else the first letter of the e-mail; else 'U'. */
export function avatarInitials(user: Partial<AvatarUser> | null | undefined): string {
  const first = user?.firstName?.trim() ?? '';
  const last = user?.lastName?.trim() ?? '';
  const initials = `${first.charAt(0)}${last.charAt(0)}`.toUpperCase();
  if (initials) return initials;
  const email = user?.email?.trim() ?? '';
  return email ? email.charAt(0).toUpperCase() : 'U';
}

export interface UserAvatarProps {
  user: Partial<AvatarUser> | null | undefined;
  size?: number;
  sx?: SxProps<Theme>;
}

/** The profile image when there is one, otherwise initials. */
export function UserAvatar({ user, size = 32, sx }: UserAvatarProps) {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || 'User';
  const image = user?.profileImageUrl || undefined;
  return (
    <Avatar src={image} alt={name} sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: 'primary.main', ...sx }}>
      {avatarInitials(user)}
    </Avatar>
  );
}
