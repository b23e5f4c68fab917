export { DashboardPage } from './DashboardPage.js';
