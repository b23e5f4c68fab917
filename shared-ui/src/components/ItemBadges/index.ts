export { HealthStatusBadge, ItemBadges, ItemStatusBadge, SourceBadge, type ItemBadgesProps } from './ItemBadges.js';
