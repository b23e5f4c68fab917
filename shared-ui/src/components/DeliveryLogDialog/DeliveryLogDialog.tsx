import { useId, type Key, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  type Breakpoint,
  type SxProps,
  type Theme,
} from '@mui/material';

/** One column of a delivery log: its header and what a row shows in it. */
export interface DeliveryLogColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The body cells' layout (a time that must not wrap, an answer that may break anywhere). */
  sx?: SxProps<Theme>;
}

/** The log as loaded, in the shape `useEndpoint` answers: rows once loaded, the error when loading failed. */
export interface DeliveryLogAnswer<Row> {
  rows: Row[] | undefined;
  error: unknown;
}

export interface DeliveryLogDialogProps<Row> {
  /** The dialog's title, which also names it for screen readers ("Delivery log: Slack #it"). */
  title: string;
  log: DeliveryLogAnswer<Row>;
  columns: DeliveryLogColumn<Row>[];
  rowKey: (row: Row) => Key;
  /** Each caller's own words: while loading, when loading failed (with its error), and with no attempt yet. */
  texts: { loading: string; failed: (error: unknown) => string; empty: string };
  /** The table's accessible name, when it has one. */
  tableLabel?: string;
  /** False while a dialog opened with `useDialogs().open` closes (so it can animate out). */
  open?: boolean;
  maxWidth?: Breakpoint;
  onClose: () => void;
}

/**
 * The attempts to deliver something somewhere (an alert channel's messages, a tracker's calls): one row per attempt
 * with its time, outcome and the receiver's answer. The same dialog for every log, so they read and behave alike;
 * each caller brings its rows, columns and words.
 */
export function DeliveryLogDialog<Row>({ title, log, columns, rowKey, texts, tableLabel, open = true, maxWidth = 'md', onClose }: DeliveryLogDialogProps<Row>) {
  const titleId = useId();
  // An error wins over rows from an earlier load, so a failed refresh is never hidden.
  const body = log.error ? (
    <Alert severity="error">{texts.failed(log.error)}</Alert>
  ) : !log.rows ? (
    <Typography color="text.secondary">{texts.loading}</Typography>
  ) : log.rows.length === 0 ? (
    <Typography color="text.secondary">{texts.empty}</Typography>
  ) : (
    <Table size="small" aria-label={tableLabel}>
      <TableHead>
        <TableRow>
          {columns.map((column) => (
            <TableCell key={column.header}>{column.header}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {log.rows.map((row) => (
          <TableRow key={rowKey(row)}>
            {columns.map((column) => (
              <TableCell key={column.header} sx={column.sx}>
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth={maxWidth} fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
