export { PaginationFooter, type PaginationFooterProps } from './PaginationFooter.js';
