export { ImpersonationBanner } from './ImpersonationBanner.js';
