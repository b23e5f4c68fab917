import { Suspense, useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { routes, USAGE_WORKLOAD_LABELS, type TenantRecord, type TenantUsageResponse } from '@radar/contracts';
import { formatChangeDate, formatDate, lazyNamed, useEndpoint, type DialogProps } from '@radar/shared-ui';
import { AdminData } from '../AdminData/index.js';
import { countText, periodText, shareText, TREND_GROUPS, trendRows, usageState, type TrendGroup } from './usage-text.js';

// recharts comes with the chart, and only once a trend is shown.
const UsageTrendChart = lazyNamed(() => import('./UsageTrendChart.js'), 'UsageTrendChart');

export type TenantUsagePayload = Pick<TenantRecord, 'id' | 'name'>;

/**
 * Admin → Tenants → Usage: how many people use each workload in the tenant (GET /api/admin/tenants/{id}/usage), the
 * share of its licensed users, as of the report's day; 90 days of trend; and why the usage is not read when it is not
 * (the permission missing, the last read failed). Relevance reads these counts (docs/product/relevance.md).
 */
export function TenantUsageDialog({ payload: tenant, open, onClose }: DialogProps<TenantUsagePayload>) {
  const usage = useEndpoint(routes.usage.tenant, { params: { id: tenant.id } });
  const titleId = useId();
  return (
    <Dialog open={open} onClose={() => onClose()} fullWidth maxWidth="md" aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId}>{`Usage: ${tenant.name}`}</DialogTitle>
      <DialogContent dividers>
        <AdminData answer={usage} what="usage" failedWhat="the usage">
          {(data) => <UsageSummary usage={data} />}
        </AdminData>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose()}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function UsageSummary({ usage }: { usage: TenantUsageResponse }) {
  const state = usageState(usage);
  const labels = new Map(usage.workloads.map((w) => [w.workload, w.label]));
  const labelOf = (workload: keyof typeof USAGE_WORKLOAD_LABELS) => labels.get(workload) ?? USAGE_WORKLOAD_LABELS[workload];
  return (
    <Stack spacing={2}>
      {state.kind === 'permission' ? (
        <Alert severity="warning" data-usage-state="permission">
          {state.text}
        </Alert>
      ) : state.kind === 'failed' ? (
        <Alert severity="error" data-usage-state="failed">
          {state.text}
        </Alert>
      ) : state.kind === 'never' ? (
        <Typography color="text.secondary">{state.text}</Typography>
      ) : null}
      {usage.readAt ? (
        <Typography variant="body2" color="text.secondary">
          {`Usage reports last read ${formatChangeDate(usage.readAt)}. Microsoft's reports run two or three days behind.`}
        </Typography>
      ) : null}
      {usage.workloads.length ? <WorkloadTable usage={usage} /> : state.kind === 'read' ? <Typography color="text.secondary">No counts yet.</Typography> : null}
      {usage.trend.length ? <Trend usage={usage} labelOf={labelOf} /> : null}
    </Stack>
  );
}

function WorkloadTable({ usage }: { usage: TenantUsageResponse }) {
  return (
    <Table size="small" aria-label="Active users per workload">
      <TableHead>
        <TableRow>
          <TableCell>Workload</TableCell>
          <TableCell align="right">Active users</TableCell>
          <TableCell align="right">Licensed</TableCell>
          <TableCell align="right">Share of licensed</TableCell>
          <TableCell>As of</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {usage.workloads.map((w) => (
          <TableRow key={w.workload} data-workload={w.workload}>
            <TableCell component="th" scope="row">
              {w.label}
            </TableCell>
            <TableCell align="right">
              {countText(w.activeUsers)}
              <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }}>
                {periodText(w.periodDays)}
              </Typography>
            </TableCell>
            <TableCell align="right">{countText(w.licensedUsers)}</TableCell>
            <TableCell align="right">{shareText(w)}</TableCell>
            {/* A calendar day of the report (UTC): shown as that day wherever the reader is. */}
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(w.reportDate, 'UTC')}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Trend({ usage, labelOf }: { usage: TenantUsageResponse; labelOf: (w: keyof typeof USAGE_WORKLOAD_LABELS) => string }) {
  const has = (group: TrendGroup) => usage.trend.some((p) => (TREND_GROUPS[group].workloads as readonly string[]).includes(p.workload));
  const [group, setGroup] = useState<TrendGroup>(() => (has('services') || !has('apps') ? 'services' : 'apps'));
  const shown = TREND_GROUPS[group].workloads.filter((w) => usage.trend.some((p) => p.workload === w));
  const rows = trendRows(usage.trend, shown);
  return (
    <Box component="section" aria-labelledby="usage-trend-title">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 1 }}>
        <Typography id="usage-trend-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
          Last 90 days
        </Typography>
        <FormControl size="small" sx={{ minWidth: 280 }}>
          <InputLabel id="usage-trend-group">Show</InputLabel>
          <Select labelId="usage-trend-group" label="Show" value={group} onChange={(e) => setGroup(e.target.value as TrendGroup)}>
            {(Object.keys(TREND_GROUPS) as TrendGroup[]).map((key) => (
              <MenuItem key={key} value={key}>
                {TREND_GROUPS[key].label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      {rows.length ? (
        <Suspense fallback={<Typography color="text.secondary">Loading the chart...</Typography>}>
          <UsageTrendChart rows={rows} workloads={shown.map((workload) => ({ workload, label: labelOf(workload) }))} />
        </Suspense>
      ) : (
        <Typography color="text.secondary">No days counted for these yet.</Typography>
      )}
    </Box>
  );
}
