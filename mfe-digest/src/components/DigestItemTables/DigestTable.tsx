import { useId, type ReactNode } from 'react';
import { useNavigate, Link as RouterLink } from 'react-router-dom';
import { Box, Link, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { featuredItemLink, providerIdOf } from '@radar/shared-ui';

export interface DigestColumn {
  header: string;
  cell: (item: UnifiedItem) => ReactNode;
  /** Keep the cell on one line (ids, dates). */
  nowrap?: boolean;
}

export interface DigestTableProps {
  title: string;
  items: UnifiedItem[];
  /** Columns after ID and Title. */
  columns: DigestColumn[];
}

/** The dashboard address that opens this item's dialog (/dashboard?roadmap={itemId}, ?message={messageId} or ?health={issueId}). */
export const dashboardLinkOf = (item: UnifiedItem) => featuredItemLink(item);

/**
 * One titled table of digest items. The title is a real link (keyboard and screen readers); the whole row is also
 * clickable for pointer users. Below the md breakpoint the same items are a list of cards (ID and title, then each
 * column as a label and value), so nothing runs off a phone's screen. CSS picks one of the two, so the page the
 * server renders is already right for the screen; the other is display: none, out of the accessibility tree.
 */
export function DigestTable({ title, items, columns }: DigestTableProps) {
  const navigate = useNavigate();
  const headingId = useId();
  const headers = ['ID', 'Title', ...columns.map((c) => c.header)];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        {title} ({items.length})
      </Typography>
      <DigestCards title={title} items={items} columns={columns} />
      <TableContainer component={Paper} variant="outlined" sx={{ display: { xs: 'none', md: 'block' } }}>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              {headers.map((header) => (
                <TableCell key={header} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                  {header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {items.length === 0 ? (
              <TableRow>
                <TableCell colSpan={headers.length}>
                  <Typography variant="body2" color="text.secondary">
                    None in the past 7 days.
                  </Typography>
                </TableCell>
              </TableRow>
            ) : (
              items.map((item) => {
                const to = dashboardLinkOf(item);
                return (
                  <TableRow key={item.id} hover data-item-id={item.id} onClick={() => navigate(to)} sx={{ cursor: 'pointer', verticalAlign: 'top' }}>
                    <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{providerIdOf(item)}</TableCell>
                    <TableCell sx={{ minWidth: 240 }}>
                      <Link component={RouterLink} to={to} underline="hover" onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 600 }}>
                        {item.title}
                      </Link>
                    </TableCell>
                    {columns.map((column) => (
                      <TableCell key={column.header} sx={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}>
                        {column.cell(item)}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

function DigestCards({ title, items, columns }: DigestTableProps) {
  if (items.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' } }}>
        None in the past 7 days.
      </Typography>
    );
  }
  return (
    <Stack component="ul" aria-label={title} spacing={1.5} sx={{ display: { xs: 'flex', md: 'none' }, listStyle: 'none', p: 0, m: 0 }}>
      {items.map((item) => (
        <Paper component="li" variant="outlined" key={item.id} data-item-id={item.id} sx={{ p: 1.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {providerIdOf(item)}
          </Typography>
          <Link component={RouterLink} to={dashboardLinkOf(item)} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {item.title}
          </Link>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(88px, auto) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0, mt: 1 }}>
            {columns.map((column) => (
              <Box key={column.header} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {column.header}
                </Typography>
                <Box component="dd" sx={{ m: 0, typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' }}>
                  {column.cell(item)}
                </Box>
              </Box>
            ))}
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}
