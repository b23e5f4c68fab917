export { BulkTriageBar, type BulkTarget, type BulkTriageBarProps } from './BulkTriageBar.js';
