export { ItemBadges, ItemStatusBadge, SourceBadge, type ItemBadgesProps } from './ItemBadges.js';
