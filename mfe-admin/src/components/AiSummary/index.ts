export { AiSummaryTab } from './AiSummaryTab.js';
export { AiSummaryView } from './AiSummaryView.js';
export { useGenerateSummary } from './useGenerateSummary.js';
export { sanitizeSummaryHtml } from './sanitize.js';
