export { AdminPage } from './AdminPage.js';
