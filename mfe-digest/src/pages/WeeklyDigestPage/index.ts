export { WeeklyDigestPage } from './WeeklyDigestPage.js';
