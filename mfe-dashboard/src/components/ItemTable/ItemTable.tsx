import { Box, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import { SKELETON_ROWS, type UnifiedItem } from '@radar/contracts';
import { useAfterFirstPaint } from '@radar/shared-ui';
import type { SortDirection, SortField } from '../../state/dashboard-filters.js';
import { ItemRow } from './ItemRow.js';

export interface ItemTableProps {
  items: UnifiedItem[];
  isLoading: boolean;
  sortField: SortField;
  sortDirection: SortDirection;
  onToggleLastModifiedSort: () => void;
  /** Sorts by the timing of change, soonest first; again: latest first. */
  onToggleTimingSort: () => void;
  onOpen: (item: UnifiedItem) => void;
  now: Date;
}

/**
 * Rows in the table's first commit. The rest follow in a transition right after it: on a cold load the first
 * screenful (about ten rows at 800 px) is rendered, laid out and painted without waiting for the other forty rows'
 * render and layout (docs/benchmarks.md, "Page load"). Later pages render whole.
 */
export const FIRST_COMMIT_ROWS = 15;

const COLUMNS = ['ID', 'Title', 'Product/Service', 'Source', 'Release Date', 'Timing of Change', 'Last Modified', 'Tag(s)'];

/** The columns whose header sorts the list. */
const SORTING: Partial<Record<string, { field: SortField; first: SortDirection }>> = {
  'Last Modified': { field: 'modifiedDate', first: 'desc' },
  'Timing of Change': { field: 'timing', first: 'asc' },
};

/** Desktop list of items. */
export function ItemTable({ items, isLoading, sortField, sortDirection, onToggleLastModifiedSort, onToggleTimingSort, onOpen, now }: ItemTableProps) {
  const allRows = useAfterFirstPaint();
  const shown = allRows ? items : items.slice(0, FIRST_COMMIT_ROWS);
  return (
    <TableContainer>
      <Table size="small" aria-label="Items" aria-busy={isLoading}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => {
              const sorting = SORTING[column];
              return sorting ? (
                <TableCell key={column} sortDirection={sortField === sorting.field ? sortDirection : false} sx={{ whiteSpace: 'nowrap' }}>
                  <TableSortLabel
                    active={sortField === sorting.field}
                    direction={sortField === sorting.field ? sortDirection : sorting.first}
                    onClick={sorting.field === 'timing' ? onToggleTimingSort : onToggleLastModifiedSort}
                  >
                    {column}
                  </TableSortLabel>
                </TableCell>
              ) : (
                <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
                  {column}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {isLoading
            ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                <TableRow key={index} data-testid="skeleton-row">
                  {COLUMNS.map((column) => (
                    <TableCell key={column}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : shown.map((item) => <ItemRow key={item.id} item={item} now={now} onOpen={onOpen} />)}
        </TableBody>
      </Table>
      {!isLoading && items.length === 0 ? (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <Typography color="text.secondary">No items found matching your current filters.</Typography>
        </Box>
      ) : null}
    </TableContainer>
  );
}
