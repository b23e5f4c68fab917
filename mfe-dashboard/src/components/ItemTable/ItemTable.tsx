import { Box, Link, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography, useTheme } from '@mui/material';
import { SKELETON_ROWS, type UnifiedItem } from '@radar/contracts';
import { SourceBadge } from '@radar/shared-ui';
import type { SortDirection, SortField } from '../../state/dashboard-filters.js';
import { presentRow, rowTint } from './row-presentation.js';
import { RowBadges, RowTags } from './RowBits.js';

export interface ItemTableProps {
  items: UnifiedItem[];
  isLoading: boolean;
  sortField: SortField;
  sortDirection: SortDirection;
  onToggleLastModifiedSort: () => void;
  onOpen: (item: UnifiedItem) => void;
  now: Date;
}

const COLUMNS = ['ID', 'Title', 'Product/Service', 'Source', 'Release Date', 'Last Modified', 'Tag(s)'];

/** Desktop list of items. */
export function ItemTable({ items, isLoading, sortField, sortDirection, onToggleLastModifiedSort, onOpen, now }: ItemTableProps) {
  const theme = useTheme();
  return (
    <TableContainer>
      <Table size="small" aria-label="Items" aria-busy={isLoading}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) =>
              column === 'Last Modified' ? (
                <TableCell key={column} sortDirection={sortField === 'modifiedDate' ? sortDirection : false} sx={{ whiteSpace: 'nowrap' }}>
                  <TableSortLabel active={sortField === 'modifiedDate'} direction={sortField === 'modifiedDate' ? sortDirection : 'desc'} onClick={onToggleLastModifiedSort}>
                    Last Modified
                  </TableSortLabel>
                </TableCell>
              ) : (
                <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
                  {column}
                </TableCell>
              ),
            )}
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
            : items.map((item) => {
                const row = presentRow(item, now);
                return (
                  <TableRow
                    key={item.id}
                    hover
                    data-item-id={item.id}
                    data-tint={row.tint ?? undefined}
                    onClick={() => onOpen(item)}
                    sx={{ cursor: 'pointer', bgcolor: rowTint(theme, row.tint), verticalAlign: 'top' }}
                  >
                    <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{row.providerId}</TableCell>
                    <TableCell sx={{ minWidth: 280 }}>
                      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <Link
                          component="button"
                          type="button"
                          underline="hover"
                          onClick={(event) => {
                            event.stopPropagation();
                            onOpen(item);
                          }}
                          sx={{ textAlign: 'left', fontWeight: 600, color: 'text.primary' }}
                        >
                          {item.title}
                        </Link>
                        <RowBadges item={item} row={row} />
                      </Stack>
                      {row.preview ? (
                        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                          {row.preview}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>{row.productText}</TableCell>
                    <TableCell>
                      <SourceBadge source={item.source} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.releaseText}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.lastModifiedText}</TableCell>
                    <TableCell>
                      <RowTags item={item} row={row} />
                    </TableCell>
                  </TableRow>
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
