export { VisuallyHidden } from './VisuallyHidden.js';
