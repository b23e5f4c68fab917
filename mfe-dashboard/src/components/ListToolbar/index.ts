export { ListToolbar, SEARCH_DEBOUNCE_MS, SORT_OPTIONS, type ListToolbarProps } from './ListToolbar.js';
