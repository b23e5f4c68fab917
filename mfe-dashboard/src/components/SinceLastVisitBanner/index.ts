export { SinceLastVisitBanner, type SinceLastVisitBannerProps } from './SinceLastVisitBanner.js';
