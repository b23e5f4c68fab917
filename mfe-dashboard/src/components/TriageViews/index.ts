export { TriageViews, type TriageViewsProps } from './TriageViews.js';
