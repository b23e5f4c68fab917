import { Fragment, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
  type SxProps,
  type Theme,
} from '@mui/material';

export interface AdminColumn<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Keep the cell on one line (dates, counts). */
  nowrap?: boolean;
  /** Widest the cell grows on wide screens (px); its text wraps. */
  maxWidth?: number;
  /** A column header with more to say (what a count counts), shown as its tooltip. */
  hint?: string;
  /** Left out of the phone card, whose title already shows it. */
  inCardTitle?: boolean;
}

export interface AdminTableProps<T> {
  /** The table's accessible name (also of the card list on small screens). */
  label: string;
  columns: AdminColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** The card title on small screens: usually what the row is about. */
  title: (row: T) => ReactNode;
  /** The row's buttons: the last column on wide screens, the foot of its card on small ones. */
  actions?: (row: T) => ReactNode;
  /** More about a row (a test's outcome): a full-width row under it on wide screens, the end of its card on small ones. */
  detail?: (row: T) => ReactNode;
  /** Wrap the table in an outlined Paper (false when the caller already frames it). */
  framed?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * The admin tabs' tables in one shape. From the md breakpoint a table; below it each row is a card — its title, every
 * other column as a label and value, its actions at the foot — so numbers and buttons are never off a phone's screen.
 */
export function AdminTable<T>({ label, columns, rows, rowKey, title, actions, detail, framed = true, sx }: AdminTableProps<T>) {
  const theme = useTheme();
  const cards = useMediaQuery(theme.breakpoints.down('md'));
  if (cards) {
    return (
      <Stack component="ul" aria-label={label} spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0, ...sx }}>
        {rows.map((row) => (
          <Paper component="li" variant="outlined" key={rowKey(row)} sx={{ p: 1.5 }}>
            <Box sx={{ typography: 'subtitle2', fontWeight: 700, mb: 1, overflowWrap: 'anywhere' }}>{title(row)}</Box>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(96px, auto) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0 }}>
              {columns
                .filter((column) => !column.inCardTitle)
                .map((column) => (
                  <Box key={column.key} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary" title={column.hint}>
                      {column.label}
                    </Typography>
                    <Box component="dd" sx={{ m: 0, typography: 'body2', overflowWrap: 'anywhere', minWidth: 0 }}>
                      {column.render(row)}
                    </Box>
                  </Box>
                ))}
            </Box>
            {actions ? (
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1, flexWrap: 'wrap' }}>
                {actions(row)}
              </Stack>
            ) : null}
            {detail?.(row) ? <Box sx={{ mt: 1 }}>{detail(row)}</Box> : null}
          </Paper>
        ))}
      </Stack>
    );
  }
  const table = (
    <TableContainer sx={sx}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key} align={column.align} title={column.hint} sx={{ whiteSpace: 'nowrap' }}>
                {column.label}
              </TableCell>
            ))}
            {actions ? <TableCell align="right">Actions</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const more = detail?.(row);
            return (
              <Fragment key={rowKey(row)}>
                <TableRow sx={{ verticalAlign: 'top' }}>
                  {columns.map((column) => (
                    <TableCell
                      key={column.key}
                      align={column.align}
                      sx={{
                        ...(column.nowrap ? { whiteSpace: 'nowrap' } : {}),
                        ...(column.maxWidth ? { maxWidth: column.maxWidth, overflowWrap: 'anywhere' } : {}),
                      }}
                    >
                      {column.render(row)}
                    </TableCell>
                  ))}
                  {actions ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {actions(row)}
                    </TableCell>
                  ) : null}
                </TableRow>
                {more ? (
                  <TableRow>
                    <TableCell colSpan={columns.length + (actions ? 1 : 0)}>{more}</TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
  return framed ? (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {table}
    </Paper>
  ) : (
    table
  );
}

/**
 * Text cut to `lines` lines with a "Show more" button when it is longer, so one long note does not make its row many
 * times taller than the others. The whole text stays in the page for screen readers.
 */
export function ClampedText({ children, lines = 2 }: { children: ReactNode; lines?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && !open) setOverflows(el.scrollHeight > el.clientHeight + 1);
  }, [children, open]);
  return (
    <Box>
      <Box
        ref={ref}
        sx={open ? undefined : { display: '-webkit-box', WebkitLineClamp: lines, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        data-clamped={open ? undefined : 'true'}
      >
        {children}
      </Box>
      {overflows || open ? (
        <Button size="small" onClick={() => setOpen((v) => !v)} aria-expanded={open} sx={{ p: 0, minWidth: 0 }}>
          {open ? 'Show less' : 'Show more'}
        </Button>
      ) : null}
    </Box>
  );
}
