export { RelevanceChip, relevanceSentence, type RelevanceChipProps } from './RelevanceChip.js';
