export { TriageRulesTab } from './TriageRulesTab.js';
