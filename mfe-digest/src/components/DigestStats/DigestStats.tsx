import { useId } from 'react';
import { Box, Paper, Skeleton, Typography } from '@mui/material';
import type { WeeklyDigestResponse } from '@radar/contracts';
import { formatCount } from '@radar/shared-ui';

export interface DigestCounts {
  newItems: number;
  updatedItems: number;
  /** null while the featured items load or when they could not be loaded. */
  featuredItems: number | null;
  totalActivity: number;
}

/**
 * New = new roadmap items + new Message Center posts; Updated = changed roadmap items + updated posts;
 * Total Activity = New + Updated. Featured items are not added to the total: they are highlights of the same
 * items (or of older ones), not additional activity.
 */
export function digestCounts(digest: WeeklyDigestResponse, featuredCount: number | null): DigestCounts {
  const newItems = digest.roadmap.newItems.length + digest.messageCenter.newItems.length;
  const updatedItems = digest.roadmap.changedItems.length + digest.messageCenter.updatedItems.length;
  return { newItems, updatedItems, featuredItems: featuredCount, totalActivity: newItems + updatedItems };
}

/** Read by screen readers, not shown (the dash is shown instead). */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

function StatCard({ label, value, isLoading, hint }: { label: string; value: number | null; isLoading?: boolean; hint?: string }) {
  const labelId = useId();
  const hintId = useId();
  return (
    <Paper variant="outlined" role="group" aria-labelledby={labelId} aria-describedby={hint ? hintId : undefined} sx={{ p: 2 }}>
      <Typography id={labelId} variant="body2" color="text.secondary">
        {label}
      </Typography>
      {isLoading ? (
        <Skeleton width={48} height={40} aria-label="Loading" />
      ) : (
        <Typography variant="h4" component="p" sx={{ fontWeight: 700 }} data-testid="stat-value">
          {value === null ? (
            <>
              <span aria-hidden>—</span>
              <Box component="span" sx={VISUALLY_HIDDEN}>
                Not available
              </Box>
            </>
          ) : (
            formatCount(value)
          )}
        </Typography>
      )}
      {hint ? (
        <Typography id={hintId} variant="caption" color="text.secondary">
          {hint}
        </Typography>
      ) : null}
    </Paper>
  );
}

export interface DigestStatsProps {
  counts: DigestCounts;
  /** The featured count is still loading. */
  featuredLoading?: boolean;
}

/** The four stat cards: New Items, Updated Items, Featured Items, Total Activity. */
export function DigestStats({ counts, featuredLoading = false }: DigestStatsProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
      <StatCard label="New Items" value={counts.newItems} />
      <StatCard label="Updated Items" value={counts.updatedItems} />
      {/* Not the Activity tab's Featured Items (every time a moderator featured an item): the items featured this week. */}
      <StatCard label="Featured Items" value={counts.featuredItems} isLoading={featuredLoading} hint="Featured by moderators this week" />
      <StatCard label="Total Activity" value={counts.totalActivity} />
    </Box>
  );
}
