export { NotificationsPage } from './NotificationsPage.js';
