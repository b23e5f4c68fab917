export { FilterSidebar, type FilterSidebarProps } from './FilterSidebar.js';
export { FilterSection } from './FilterSection.js';
