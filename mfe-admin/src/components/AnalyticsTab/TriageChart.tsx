import { useState } from 'react';
import { Box, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Typography, useTheme } from '@mui/material';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { routes } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';
import { AdminData } from '../AdminData/index.js';
import { ChangeHealthChart } from './ChangeHealthChart.js';
import { ChangeHealthToday, type TriageTenant } from './ChangeHealthToday.js';

/**
 * Triage over time: open, overdue and done items per day as the triage job counted them each day (all tenants, one
 * tenant, or the items of no tenant such as the roadmap's). It starts the day triage came in: there is no history of
 * states before that. Above it, today's change-health score of the tenant chosen and what costs its points; under it,
 * the score per day (docs/product/change-health.md).
 */
export function TriageChart() {
  const theme = useTheme();
  const [tenant, setTenant] = useState<string>('all');
  const chosen: TriageTenant = tenant === 'all' || tenant === 'none' ? tenant : Number(tenant);
  const answer = useEndpoint(routes.triage.analytics, { query: { tenant: chosen } });
  // The tenants to choose from, kept while another tenant's days load: the menu must still hold the value chosen.
  const [tenants, setTenants] = useState<{ id: number; name: string }[]>([]);
  if (answer.data && answer.data.tenants !== tenants) setTenants(answer.data.tenants);
  const text = theme.palette.text.secondary;
  const axis = { stroke: theme.palette.divider, tick: { fill: text, fontSize: 12 } };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="triage-chart-title" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 2 }}>
        <Typography id="triage-chart-title" variant="h6" component="h2">
          Triage: open and done over time
        </Typography>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id="triage-chart-tenant">Tenant</InputLabel>
          <Select labelId="triage-chart-tenant" label="Tenant" value={tenant} onChange={(e) => setTenant(e.target.value)}>
            <MenuItem value="all">All tenants</MenuItem>
            <MenuItem value="none">No tenant (roadmap)</MenuItem>
            {tenants.map((t) => (
              <MenuItem key={t.id} value={String(t.id)}>
                {t.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <ChangeHealthToday tenant={chosen} />
      <AdminData
        answer={answer}
        what="triage analytics"
        empty={{ when: (d) => d.days.length === 0, text: 'Triage is counted once a day: the chart fills from the first count.' }}
      >
        {(data) => {
          const last = data.days[data.days.length - 1];
          return (
            <>
              <Box
                sx={{ width: '100%', height: 320 }}
                role="img"
                aria-label={`Line chart of triage per day from ${data.days[0]?.date ?? ''} to ${last?.date ?? ''}; on ${last?.date ?? ''}: ${last?.open ?? 0} open, ${last?.overdue ?? 0} overdue, ${last?.done ?? 0} done`}
              >
                <ResponsiveContainer width="100%" height="100%" minWidth={0}>
                  <LineChart data={data.days} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                    <CartesianGrid stroke={theme.palette.divider} strokeDasharray="3 3" />
                    <XAxis dataKey="date" {...axis} />
                    <YAxis allowDecimals={false} {...axis} />
                    <Tooltip
                      contentStyle={{ backgroundColor: theme.palette.background.paper, borderColor: theme.palette.divider, color: theme.palette.text.primary }}
                    />
                    <Legend wrapperStyle={{ color: text }} />
                    <Line type="monotone" dataKey="open" name="Open" stroke={theme.palette.primary.main} dot={false} />
                    <Line type="monotone" dataKey="overdue" name="Overdue" stroke={theme.palette.error.main} dot={false} />
                    <Line type="monotone" dataKey="done" name="Done" stroke={theme.palette.success.main} dot={false} />
                  </LineChart>
                </ResponsiveContainer>
              </Box>
              <ChangeHealthChart days={data.days} />
            </>
          );
        }}
      </AdminData>
    </Paper>
  );
}
