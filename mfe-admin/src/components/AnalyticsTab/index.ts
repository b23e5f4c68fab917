export { AnalyticsTab } from './AnalyticsTab.js';
