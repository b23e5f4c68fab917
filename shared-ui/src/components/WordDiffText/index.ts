export { VisuallyHidden } from './VisuallyHidden.js';
export { WordDiffText } from './WordDiffText.js';
