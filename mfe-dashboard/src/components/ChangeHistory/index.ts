export { ChangeHistory, type ChangeHistoryProps } from './ChangeHistory.js';
export { CHANGE_BADGE, formatChangeValue, significantEntries, significantFields } from './history-rules.js';
