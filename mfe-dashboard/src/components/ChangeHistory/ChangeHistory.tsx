import { useState } from 'react';
import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { ChangeHistoryEntry, Source } from '@radar/contracts';
import { formatChangeDate } from '@radar/shared-ui';
import { VersionCompare } from '../VersionCompare/index.js';
import { CHANGE_BADGE, formatChangeValue, significantEntries, significantFields } from './history-rules.js';

export interface ChangeHistoryProps {
  entries: ChangeHistoryEntry[] | undefined;
  isLoading: boolean;
  error: unknown;
  /** The item, to compare its versions (the Compare button shows once it has two or more). */
  compare?: { source: Source; id: string };
}

const BADGE_COLOR = { new: 'success', changed: 'info', removed: 'error' } as const;

/** The change history of an item, newest first as the api sends it, with Compare for any two of its versions. */
export function ChangeHistory({ entries, isLoading, error, compare }: ChangeHistoryProps) {
  const [comparing, setComparing] = useState(false);
  if (isLoading) return <Skeleton variant="rounded" height={64} aria-label="Loading change history" />;
  if (error) return <Alert severity="error">Failed to fetch change history</Alert>;
  if (!entries || entries.length === 0) return <Typography color="text.secondary">No change history available</Typography>;
  const shown = significantEntries(entries);
  return (
    <>
      {compare && entries.length >= 2 ? (
        <Box sx={{ mb: 1.5 }}>
          <Button size="small" variant="outlined" aria-expanded={comparing} onClick={() => setComparing((v) => !v)}>
            {comparing ? 'Hide comparison' : 'Compare versions'}
          </Button>
        </Box>
      ) : null}
      {compare && comparing ? <VersionCompare source={compare.source} id={compare.id} /> : null}
      {shown.length === 0 ? (
        <Typography color="text.secondary">No significant changes recorded yet</Typography>
      ) : (
        <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Change history">
          {shown.map((entry) => {
            const fields = significantFields(entry);
            return (
              <Box component="li" key={entry.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Chip size="small" color={BADGE_COLOR[entry.changeType]} label={CHANGE_BADGE[entry.changeType]} />
                  {entry.minor ? <Chip size="small" variant="outlined" label="Minor" title="Only whitespace, punctuation or letter case changed" /> : null}
                  <Typography variant="body2" color="text.secondary">
                    {formatChangeDate(entry.changeDate)}
                  </Typography>
                </Stack>
                {entry.changeType === 'changed' && fields.length > 0 ? (
                  <>
                    <Typography variant="body2" sx={{ mt: 1 }}>
                      Changed fields: {fields.join(', ')}
                    </Typography>
                    {fields.map((field) => (
                      <Box key={field} sx={{ mt: 1 }}>
                        <Typography variant="caption" sx={{ fontWeight: 600 }}>
                          {field}
                        </Typography>
                        <Typography variant="body2" sx={{ color: 'error.main', overflowWrap: 'anywhere' }}>
                          Previous: {formatChangeValue(entry.previousValues[field], field)}
                        </Typography>
                        <Typography variant="body2" sx={{ color: 'success.main', overflowWrap: 'anywhere' }}>
                          New: {formatChangeValue(entry.newValues[field], field)}
                        </Typography>
                      </Box>
                    ))}
                  </>
                ) : null}
              </Box>
            );
          })}
        </Stack>
      )}
    </>
  );
}
