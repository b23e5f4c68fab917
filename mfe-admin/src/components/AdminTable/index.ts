export { AdminTable, ClampedText, type AdminColumn, type AdminTableProps } from './AdminTable.js';
