import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Chip, Link, Pagination, Stack, Typography } from '@mui/material';
import { formatCount, type ChangeHistoryEntry } from '@radar/contracts';
import { WordDiffText, formatChangeDate } from '@radar/shared-ui';
import { useChangeHistory } from '../../api/admin.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable, ClampedText, type AdminColumn } from '../AdminTable/index.js';
import { changeItemLink, formatChangeValue, meaningfulFields } from './change-values.js';

/** Change History: each recorded change with its fields and what changed in them, newest first, paged. */
export function ChangeHistoryTab() {
  const [page, setPage] = useState(1);
  return (
    <AdminData
      answer={useChangeHistory(page)}
      what="change history"
      failedWhat="the change history"
      empty={{ when: (data) => data.changeHistory.length === 0, text: 'No changes have been recorded yet.' }}
    >
      {(data) => (
        <Stack spacing={2}>
          <Typography color="text.secondary">{formatCount(data.total, 'change')} recorded</Typography>
          <AdminTable
            label="Change history"
            columns={COLUMNS}
            rows={data.changeHistory}
            rowKey={(entry) => entry.id}
            title={(entry) => <ItemCell entry={entry} />}
          />
          {data.totalPages > 1 ? (
            <Pagination
              sx={{ alignSelf: 'center' }}
              count={data.totalPages}
              page={page}
              onChange={(_, next) => setPage(next)}
              aria-label="Change history pages"
            />
          ) : null}
        </Stack>
      )}
    </AdminData>
  );
}

const COLUMNS: AdminColumn<ChangeHistoryEntry>[] = [
  { key: 'date', label: 'Date', nowrap: true, render: (entry) => formatChangeDate(entry.changeDate) },
  { key: 'item', label: 'Item', maxWidth: 240, inCardTitle: true, render: (entry) => <ItemCell entry={entry} /> },
  { key: 'change', label: 'Change', render: (entry) => <ChangeChips entry={entry} /> },
  { key: 'fields', label: 'Changed fields', maxWidth: 180, render: (entry) => meaningfulFields(entry).join(', ') || '—' },
  { key: 'values', label: 'What changed', maxWidth: 520, render: (entry) => <ChangedValues entry={entry} /> },
];

function ItemCell({ entry }: { entry: ChangeHistoryEntry }) {
  const item = changeItemLink(entry);
  if (!item) return <>—</>;
  return (
    <>
      <Link component={RouterLink} to={item.to}>
        {item.label}
      </Link>
      <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block', fontWeight: 400 }}>
        {item.title}
      </Typography>
    </>
  );
}

function ChangeChips({ entry }: { entry: ChangeHistoryEntry }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
      <Chip size="small" variant="outlined" label={entry.changeType} />
      {entry.minor ? <Chip size="small" variant="outlined" label="Minor" title="Only whitespace, punctuation or letter case changed" /> : null}
    </Stack>
  );
}

/**
 * Each changed field: prose (title, description, summary, body) as a word diff of its text with the changed words in
 * view; other fields as previous → new. Long values are clamped with Show more, so one body does not make its row
 * many times taller than the others.
 */
function ChangedValues({ entry }: { entry: ChangeHistoryEntry }) {
  const diffs = new Map((entry.textDiffs ?? []).map((diff) => [diff.field, diff.parts]));
  return (
    <>
      {meaningfulFields(entry).map((field) => {
        const parts = diffs.get(field);
        return (
          <Box key={field} sx={{ mb: 0.5, typography: 'body2', whiteSpace: parts ? 'pre-wrap' : undefined }}>
            <ClampedText lines={4}>
              <Box component="span" sx={{ fontWeight: 600 }}>
                {field}:{' '}
              </Box>
              {parts ? (
                parts.length ? (
                  <WordDiffText parts={parts} />
                ) : (
                  <Box component="span" sx={{ color: 'text.secondary' }}>
                    only the formatting changed, not the text
                  </Box>
                )
              ) : (
                <>
                  <Box component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
                    {formatChangeValue(entry.previousValues[field], field)}
                  </Box>
                  {' → '}
                  <span>{formatChangeValue(entry.newValues[field], field)}</span>
                </>
              )}
            </ClampedText>
          </Box>
        );
      })}
    </>
  );
}
