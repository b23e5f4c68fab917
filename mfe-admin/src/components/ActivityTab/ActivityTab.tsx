import { useId, useState } from 'react';
import { Alert, Box, Chip, Link, Pagination, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { ModeratorActivity, ModeratorActivityStats } from '@radar/contracts';
import { formatChangeDate } from '@radar/shared-ui';
import { useActivities, useActivityStats } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { AdminData } from '../AdminData/index.js';

// Featured Items counts every time a moderator featured an item, ever: the weekly digest's card of the same name counts
// the items featured this week, so each says what it counts.
const STAT_CARDS: Array<{ key: keyof ModeratorActivityStats; label: string; hint?: string }> = [
  { key: 'totalActivities', label: 'Total Activities' },
  { key: 'featuredItems', label: 'Featured Items', hint: 'Times an item was featured, all time' },
  { key: 'linksAdded', label: 'Links Added' },
  { key: 'notesAdded', label: 'Notes Added' },
  { key: 'recentActivity', label: 'Recent Activity (7 days)' },
];

/** 'link_added' -> 'Link added'. */
export const actionLabel = (action: string) => {
  const text = action.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const LINK_PARAMS: Record<ModeratorActivity['itemType'], string> = { roadmap: 'roadmap', message_center: 'message', service_health: 'health' };
const SOURCE_NAMES: Record<ModeratorActivity['itemType'], string> = { roadmap: 'Roadmap', message_center: 'Message Center', service_health: 'Service Health' };
const itemLink = (a: ModeratorActivity) => `/dashboard?${LINK_PARAMS[a.itemType]}=${encodeURIComponent(a.itemId)}`;
const FIELD_NAMES: Record<string, string> = { state: 'State', owner: 'Owner', dueDate: 'Due date', priority: 'Priority' };

/** A triage change's lines ("State: New → Done"), with the tenant it was for; empty for other actions. */
export function triageChangeText(details: unknown): string[] {
  const d = (details ?? {}) as { changes?: { field: string; before: string | null; after: string | null }[]; tenant?: { name: string } };
  const lines = (d.changes ?? []).map((c) => `${FIELD_NAMES[c.field] ?? c.field}: ${c.before ?? 'none'} → ${c.after ?? 'none'}`);
  return d.tenant && lines.length ? [...lines, `Tenant: ${d.tenant.name}`] : lines;
}

/** Activity: moderator activity statistics and the log, 20 per page. */
export function ActivityTab() {
  const [page, setPage] = useState(1);
  const stats = useActivityStats();
  const hintId = useId();
  const list = useActivities(page);
  return (
    <Stack spacing={3}>
      {stats.error ? <Alert severity="error">Could not load activity statistics ({errorMessageOf(stats.error)}).</Alert> : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(5, 1fr)' } }}>
        {STAT_CARDS.map(({ key, label, hint }) => (
          <Paper key={key} variant="outlined" sx={{ p: 2 }} aria-label={label} aria-describedby={hint ? `${hintId}-${key}` : undefined} role="group">
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
              {stats.data ? stats.data[key] : '—'}
            </Typography>
            {hint ? (
              <Typography id={`${hintId}-${key}`} variant="caption" color="text.secondary">
                {hint}
              </Typography>
            ) : null}
          </Paper>
        ))}
      </Box>
      <AdminData answer={list} what="moderator activity" empty={{ when: (data) => data.activities.length === 0, text: 'No moderator activity yet.' }}>
        {(data) => (
          <>
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label="Moderator activity">
                <TableHead>
                  <TableRow>
                    <TableCell>Date</TableCell>
                    <TableCell>Moderator</TableCell>
                    <TableCell>Action</TableCell>
                    <TableCell>Source</TableCell>
                    <TableCell>Item</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.activities.map((activity) => (
                    <TableRow key={activity.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatChangeDate(activity.timestamp)}</TableCell>
                      <TableCell>{activity.userEmail}</TableCell>
                      <TableCell>
                        <Chip size="small" variant="outlined" label={actionLabel(activity.actionType)} />
                        {triageChangeText(activity.details).map((line) => (
                          <Typography key={line} variant="caption" component="div" color="text.secondary">
                            {line}
                          </Typography>
                        ))}
                      </TableCell>
                      <TableCell>{SOURCE_NAMES[activity.itemType]}</TableCell>
                      <TableCell>
                        <Link component={RouterLink} to={itemLink(activity)}>
                          {activity.itemId}
                        </Link>{' '}
                        {activity.itemTitle}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center' }}>
              <Typography variant="body2" color="text.secondary">
                Page {data.page} of {Math.max(1, data.totalPages)} · {data.total} activities
              </Typography>
              {data.totalPages > 1 ? (
                <Pagination count={data.totalPages} page={page} onChange={(_, next) => setPage(next)} aria-label="Activity pages" />
              ) : null}
            </Stack>
          </>
        )}
      </AdminData>
    </Stack>
  );
}
