import { useState } from 'react';
import { Alert, Box, MenuItem, Skeleton, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { historyFieldLabel, type ItemVersion, type Source } from '@radar/contracts';
import { formatChangeDate } from '@radar/shared-ui';
import { useItemVersions, useVersionCompare } from '../../api/versions.js';
import { CHANGE_BADGE, formatChangeValue } from '../ChangeHistory/history-rules.js';
import { WordDiff } from './WordDiff.js';

export interface VersionCompareProps {
  source: Source;
  /** The provider id (roadmap itemId or messageId). */
  id: string;
}

const versionLabel = (v: ItemVersion) => {
  const kind = v.changedFields.includes('isRemoved') && v.changeType === 'changed' ? 'Restored' : CHANGE_BADGE[v.changeType];
  return `Version ${v.version} · ${formatChangeDate(v.changeDate)} · ${kind}${v.minor ? ' (minor)' : ''}`;
};

function cellText(field: string, value: unknown, hasWordDiff: boolean): string {
  if (hasWordDiff && (field === 'description' || field === 'bodyContent')) return 'Changed: see the word-level comparison below';
  if (field === 'isRemoved') return value ? 'Removed' : 'In the feed';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return formatChangeValue(value, field);
}

/**
 * Compare any two versions of an item (default: the last two): a before / after table of the fields that differ and
 * a word-level diff of the description or body. Versions are rebuilt on the server from the change history.
 */
export function VersionCompare({ source, id }: VersionCompareProps) {
  const versions = useItemVersions(source, id);
  const latest = versions.data?.[0]?.version ?? 0;
  // Until the user picks, the last two versions.
  const [pickedFrom, setFrom] = useState<number | null>(null);
  const [pickedTo, setTo] = useState<number | null>(null);
  const from = pickedFrom ?? (latest > 0 ? Math.max(1, latest - 1) : null);
  const to = pickedTo ?? (latest > 0 ? latest : null);
  const compare = useVersionCompare(source, id, from, to);

  if (versions.error) return <Alert severity="error">Failed to fetch versions</Alert>;
  const list = versions.data;
  if (!list) return <Skeleton variant="rounded" height={96} aria-label="Loading versions" />;
  const picker = (label: string, value: number | null, onChange: (v: number) => void) => (
    <TextField select size="small" label={label} value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))} sx={{ minWidth: 260, flex: 1 }}>
      {list.map((v) => (
        <MenuItem key={v.version} value={v.version}>
          {versionLabel(v)}
        </MenuItem>
      ))}
    </TextField>
  );
  const textLabel = source === 'roadmap' ? 'Description' : 'Details';
  const result = compare.data;
  return (
    <Box component="section" aria-label="Compare versions" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, mb: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1.5 }}>
        {picker('From version', from, setFrom)}
        {picker('To version', to, setTo)}
      </Stack>
      {compare.error ? <Alert severity="error">Failed to compare versions</Alert> : null}
      {!result && !compare.error ? <Skeleton variant="rounded" height={64} aria-label="Loading comparison" /> : null}
      {result && result.fields.length === 0 ? <Typography color="text.secondary">No differences between these versions</Typography> : null}
      {result && result.fields.length > 0 ? (
        <Table size="small" aria-label="Changed fields">
          <TableHead>
            <TableRow>
              <TableCell>Field</TableCell>
              <TableCell>{`Before (version ${result.from.version})`}</TableCell>
              <TableCell>{`After (version ${result.to.version})`}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.fields.map((f) => (
              <TableRow key={f.field} sx={{ verticalAlign: 'top' }}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {historyFieldLabel(f.field)}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{cellText(f.field, f.before, result.wordDiff !== null)}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{cellText(f.field, f.after, result.wordDiff !== null)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {result?.wordDiff ? (
        <Box sx={{ mt: 2 }}>
          {result.wordDiff.gaveUp ? (
            <Alert severity="info" sx={{ mb: 1 }}>
              The two versions differ too much to compare word by word: the old text is shown removed and the new one added.
            </Alert>
          ) : null}
          <WordDiff diff={result.wordDiff} label={textLabel} />
        </Box>
      ) : null}
    </Box>
  );
}
