import { useState } from 'react';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { routes, type TriageStartLine } from '@radar/contracts';
import { formatDate, useEndpoint } from '@radar/shared-ui';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import { MoveLineDialog } from './MoveLineDialog.js';
import { TriageSettingsForm } from './TriageSettingsForm.js';

const lineKey = (line: TriageStartLine) => line.tenantId ?? 'none';

/**
 * Admin → Triage, Starting line: each tenant's starting line (and that of the records of no tenant), with its records
 * open and those closed before tracking; Move… moves one (with a preview of what it opens and closes). Below, the
 * settings: how far before the line an act-by date still opens a record, and whether every upcoming roadmap item does.
 */
export function TriageStartCard() {
  const start = useEndpoint(routes.triage.start, {});
  const [moving, setMoving] = useState<TriageStartLine | null>(null);
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <div>
            <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
              Starting line
            </Typography>
            <Typography color="text.secondary">
              Triage counts from each tenant’s starting line: items already past on that day (launched or cancelled roadmap items, expired posts, resolved
              health issues) are closed before tracking, and never counted as done by someone.
            </Typography>
          </div>
          <AdminData answer={start} what="the starting lines" empty={{ when: (data) => data.lines.length === 0, text: 'No starting line yet.' }}>
            {(data) => (
              <AdminTable
                label="Starting lines"
                rows={data.lines}
                rowKey={lineKey}
                title={(line) => line.tenantName}
                columns={[
                  { key: 'tenant', label: 'Tenant', inCardTitle: true, render: (line) => line.tenantName },
                  // A calendar day (YYYY-MM-DD): formatted in UTC, so no time zone moves it a day.
                  { key: 'from', label: 'Starts from', nowrap: true, render: (line) => formatDate(line.from, 'UTC') },
                  { key: 'open', label: 'Open', align: 'right', render: (line) => line.open.toLocaleString('en-US') },
                  {
                    key: 'closed',
                    label: 'Closed before tracking',
                    align: 'right',
                    hint: 'Records closed because their item was already past on the starting line',
                    render: (line) => line.closedBeforeTracking.toLocaleString('en-US'),
                  },
                ]}
                actions={(line) => (
                  <Button size="small" onClick={() => setMoving(line)}>
                    Move…
                  </Button>
                )}
              />
            )}
          </AdminData>
          {start.data ? <TriageSettingsForm key={JSON.stringify(start.data.settings)} settings={start.data.settings} /> : null}
        </Stack>
      </CardContent>
      {moving ? <MoveLineDialog line={moving} onClose={() => setMoving(null)} /> : null}
    </Card>
  );
}
