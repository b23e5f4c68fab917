export { SyncHistoryTab } from './SyncHistoryTab.js';
