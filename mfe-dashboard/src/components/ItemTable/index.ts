export { ItemTable, type ItemTableProps } from './ItemTable.js';
export { presentRow, rowTint, type RowPresentation } from './row-presentation.js';
export { RowTags } from './RowBits.js';
