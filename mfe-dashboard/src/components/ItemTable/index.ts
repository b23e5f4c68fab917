export { ItemTable, type ItemTableProps } from './ItemTable.js';
export { presentRow, removalOf, rowTint, type Removal, type RowPresentation } from './row-presentation.js';
export { RowBadges, RowTags } from './RowBits.js';
