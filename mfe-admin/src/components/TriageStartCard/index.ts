export { TriageStartCard } from './TriageStartCard.js';
