export { ActivityTab } from './ActivityTab.js';
