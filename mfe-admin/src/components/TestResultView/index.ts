export { TestResultView, type TestResultViewProps } from './TestResultView.js';
