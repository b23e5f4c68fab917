import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Chip, Link, Pagination, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { formatCount, type ChangeHistoryEntry } from '@radar/contracts';
import { formatChangeDate } from '@radar/shared-ui';
import { useChangeHistory } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { changeItemLink, formatChangeValue, meaningfulFields } from './change-values.js';

/** Change History: each recorded change with its fields and previous → new values, newest first, paged. */
export function ChangeHistoryTab() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useChangeHistory(page);
  if (error) return <Alert severity="error">Could not load the change history ({errorMessageOf(error)}).</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">Loading change history...</Typography>;
  if (data.changeHistory.length === 0) return <Typography color="text.secondary">No changes have been recorded yet.</Typography>;
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{formatCount(data.total, 'change')} recorded</Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Change history">
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              <TableCell>Item</TableCell>
              <TableCell>Change</TableCell>
              <TableCell>Changed fields</TableCell>
              <TableCell>Previous → new</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.changeHistory.map((entry) => (
              <ChangeRow key={entry.id} entry={entry} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {data.totalPages > 1 ? (
        <Pagination sx={{ alignSelf: 'center' }} count={data.totalPages} page={page} onChange={(_, next) => setPage(next)} aria-label="Change history pages" />
      ) : null}
    </Stack>
  );
}

function ChangeRow({ entry }: { entry: ChangeHistoryEntry }) {
  const item = changeItemLink(entry);
  const fields = meaningfulFields(entry);
  return (
    <TableRow sx={{ verticalAlign: 'top' }}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatChangeDate(entry.changeDate)}</TableCell>
      <TableCell sx={{ maxWidth: 260 }}>
        {item ? (
          <>
            <Link component={RouterLink} to={item.to}>
              {item.label}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {item.title}
            </Typography>
          </>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
          <Chip size="small" variant="outlined" label={entry.changeType} />
          {entry.minor ? <Chip size="small" variant="outlined" label="Minor" title="Only whitespace, punctuation or letter case changed" /> : null}
        </Stack>
      </TableCell>
      <TableCell>{fields.length ? fields.join(', ') : '—'}</TableCell>
      <TableCell sx={{ maxWidth: 480, wordBreak: 'break-word' }}>
        {fields.map((field) => (
          <Box key={field} sx={{ mb: 0.5 }}>
            <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
              {field}:{' '}
            </Typography>
            <Typography variant="body2" component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
              {formatChangeValue(entry.previousValues[field], field)}
            </Typography>
            {' → '}
            <Typography variant="body2" component="span">
              {formatChangeValue(entry.newValues[field], field)}
            </Typography>
          </Box>
        ))}
      </TableCell>
    </TableRow>
  );
}
