export { TriagePanel, type TriagePanelProps } from './TriagePanel.js';
