export { ChangeHistoryTab } from './ChangeHistoryTab.js';
