export { ImpersonationCard, type ImpersonationCardProps } from './ImpersonationCard.js';
