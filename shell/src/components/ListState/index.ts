export { ListState, type ListStateProps } from './ListState.js';
