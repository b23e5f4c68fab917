import { Box, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import { FIRST_SCREEN_ROWS, type ListRelevance, type ListTriage, type UnifiedItem } from '@radar/contracts';
import { SKELETON_ROWS, useAfterFirstPaint } from '@radar/shared-ui';
import type { SortDirection, SortField } from '../../state/dashboard-filters.js';
import { ItemRow } from './ItemRow.js';
import { SelectBox } from './RowCells.js';
import { triageCells, type TriageCells } from './triage-cells.js';

/** The cells of an item without a triage record the caller may see. */
const NO_TRIAGE: TriageCells = { state: '—', owner: '—', due: '—', overdue: false };

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
  /** "Received by 3 of 5 tenants" of an item, or null (see receivedByText). */
  receivedText?: (item: UnifiedItem) => string | null;
  /** Signed-in users: each item's triage (the list answer's `triage`), shown in the State, Owner and Due columns. */
  triage?: Record<string, ListTriage[]>;
  /** Signed-in users: each item's relevance (the list answer's `relevance`), a chip by its title. */
  relevance?: Record<string, ListRelevance>;
  /** The name of the tenant a relevance is of, when the reader sees several tenants (else null). */
  relevanceTenant?: (tenantId: number) => string | null;
  /** Sorts by the nearest due date, soonest first; again: latest first. */
  onToggleDueSort?: () => void;
  /** Moderators and admins: the rows chosen for a bulk triage change (by item id); absent: no selection column. */
  selected?: ReadonlySet<string>;
  onSelect?: (itemIds: string[], selected: boolean) => void;
}

/**
 * Rows in the table's first commit. The rest follow in a transition right after it: on a cold load the first
 * screenful (about ten rows at 800 px) is rendered, laid out and painted without waiting for the other forty rows'
 * render and layout (docs/benchmarks.md, "Page load"). Later pages render whole.
 */
export const FIRST_COMMIT_ROWS = FIRST_SCREEN_ROWS;

const COLUMNS = ['ID', 'Title', 'Product/Service', 'Source', 'Release Date', 'Timing of Change', 'Last Modified', 'Tag(s)'];
/** With triage (signed-in users) the team's columns come right after the title. */
const TRIAGE_COLUMNS = ['ID', 'Title', 'State', 'Owner', 'Due', 'Product/Service', 'Source', 'Release Date', 'Timing of Change', 'Last Modified', 'Tag(s)'];

/** Each column's key: its cells carry it as `data-col`, and its copy in the Title cell as `data-fold`. */
export const COLUMN_KEYS: Record<string, string> = {
  ID: 'id',
  Title: 'title',
  'Product/Service': 'product',
  Source: 'source',
  'Release Date': 'release',
  'Timing of Change': 'timing',
  'Last Modified': 'modified',
  'Tag(s)': 'tags',
  State: 'state',
  Owner: 'owner',
  Due: 'due',
};

/**
 * The table fits its box at every width: below each width (of the table's box, not the window: the filter sidebar
 * takes 300 px of it) the least important column left folds into the Title cell, which shows the same content
 * under the title. CSS container queries decide, so the server-rendered table is already right before any script.
 */
export const FOLDS: { key: string; below: number; narrowTitle?: boolean }[] = [
  { key: 'tags', below: 1204 },
  { key: 'product', below: 1048 },
  // From here on the title gets by with less room.
  { key: 'modified', below: 892, narrowTitle: true },
  { key: 'timing', below: 760 },
];

/**
 * With the triage columns (and a moderator's selection column) the table needs 444 px more before anything folds, and
 * the owner folds first of them. Each fold comes where the columns left (COLUMN_WIDTHS) and the title's minimum no
 * longer fit (the test checks it): a table squeezed below that shrinks columns by their content, rows after the
 * first screen's included.
 */
export const TRIAGE_FOLDS: { key: string; below: number; narrowTitle?: boolean }[] = [
  { key: 'tags', below: 1648 },
  { key: 'product', below: 1492 },
  { key: 'release', below: 1336 },
  { key: 'modified', below: 1232, narrowTitle: true },
  { key: 'timing', below: 1028 },
  { key: 'owner', below: 912 },
];

/**
 * Every column but the title has its own width, so the title alone takes what is left: the columns' widths do not
 * depend on the rows. Left to the table's automatic layout they did, and the rows after the first screen's (drawn
 * after hydration, with longer ids and wider source badges) moved every column and made rows on screen taller
 * (layout shift). Each is wide enough for its longest value (monospace ids of 9 characters, 'Message Center'); the
 * triage cells, whose values have no such bound ('Closed before tracking (+2 tenants)', owners' names), wrap instead.
 */
export const COLUMN_WIDTHS: Record<string, number> = {
  select: 52,
  id: 112,
  state: 120,
  owner: 128,
  due: 144,
  product: 156,
  source: 156,
  release: 104,
  timing: 116,
  modified: 124,
  tags: 156,
};
const columnWidthSx = Object.fromEntries(Object.entries(COLUMN_WIDTHS).map(([key, width]) => [`& th[data-col="${key}"]`, { width }]));

const foldSx = (folds: typeof FOLDS) => ({
  containerType: 'inline-size',
  containerName: 'items',
  ...columnWidthSx,
  ...Object.fromEntries(
    folds.map(({ key, below, narrowTitle }) => [
      `@container items (max-width: ${below - 0.02}px)`,
      {
        [`& [data-col="${key}"]`]: { display: 'none' },
        [`& [data-fold="${key}"]`]: { display: 'block' },
        ...(narrowTitle ? { '& [data-col="title"]': { minWidth: 200 } } : {}),
      },
    ]),
  ),
});
const containerSx = foldSx(FOLDS);
const triageContainerSx = foldSx(TRIAGE_FOLDS);

/** The columns whose header sorts the list. */
const SORTING: Partial<Record<string, { field: SortField; first: SortDirection }>> = {
  'Last Modified': { field: 'modifiedDate', first: 'desc' },
  'Timing of Change': { field: 'timing', first: 'asc' },
  Due: { field: 'due', first: 'asc' },
};

/** Desktop list of items. */
export function ItemTable({
  items,
  isLoading,
  sortField,
  sortDirection,
  onToggleLastModifiedSort,
  onToggleTimingSort,
  onOpen,
  now,
  receivedText,
  triage,
  relevance,
  relevanceTenant,
  onToggleDueSort,
  selected,
  onSelect,
}: ItemTableProps) {
  const selectable = selected !== undefined && onSelect !== undefined;
  const pageIds = items.map((item) => item.id);
  const chosenOnPage = selectable ? pageIds.filter((id) => selected.has(id)).length : 0;
  const allRows = useAfterFirstPaint();
  const shown = allRows ? items : items.slice(0, FIRST_COMMIT_ROWS);
  const columns = triage ? TRIAGE_COLUMNS : COLUMNS;
  const today = now.toISOString().slice(0, 10);
  const toggleOf = (field: SortField) =>
    field === 'timing' ? onToggleTimingSort : field === 'due' ? (onToggleDueSort ?? (() => undefined)) : onToggleLastModifiedSort;
  return (
    <TableContainer sx={triage ? triageContainerSx : containerSx}>
      <Table size="small" aria-label="Items" aria-busy={isLoading}>
        <TableHead>
          <TableRow>
            {selectable ? (
              <TableCell padding="checkbox" data-col="select">
                <SelectBox
                  checked={pageIds.length > 0 && chosenOnPage === pageIds.length}
                  indeterminate={chosenOnPage > 0 && chosenOnPage < pageIds.length}
                  disabled={isLoading || pageIds.length === 0}
                  onChange={(e) => onSelect(pageIds, e.target.checked)}
                  aria-label="Select all rows on this page"
                />
              </TableCell>
            ) : null}
            {/* Headers wrap ('Timing of / Change'): on one line they made their columns wider than any value. */}
            {columns.map((column) => {
              const sorting = SORTING[column];
              return sorting ? (
                <TableCell key={column} data-col={COLUMN_KEYS[column]} sortDirection={sortField === sorting.field ? sortDirection : false}>
                  <TableSortLabel
                    active={sortField === sorting.field}
                    direction={sortField === sorting.field ? sortDirection : sorting.first}
                    onClick={toggleOf(sorting.field)}
                  >
                    {column}
                  </TableSortLabel>
                </TableCell>
              ) : (
                <TableCell key={column} data-col={COLUMN_KEYS[column]}>
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
                  {selectable ? <TableCell padding="checkbox" /> : null}
                  {columns.map((column) => (
                    <TableCell key={column} data-col={COLUMN_KEYS[column]}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : shown.map((item) => {
                const itemRelevance = relevance?.[item.id] ?? null;
                return (
                  <ItemRow
                    key={item.id}
                    item={item}
                    now={now}
                    onOpen={onOpen}
                    received={receivedText?.(item) ?? null}
                    triage={triage ? (triageCells(triage[item.id], today) ?? NO_TRIAGE) : undefined}
                    relevance={itemRelevance}
                    relevanceTenant={itemRelevance ? (relevanceTenant?.(itemRelevance.tenantId) ?? null) : null}
                    selected={selectable ? selected.has(item.id) : undefined}
                    onSelect={onSelect}
                  />
                );
              })}
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
