import { useState } from 'react';
import { Alert, Button, Paper, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { DIGEST_REPORT_LIMIT, type DigestReport, type DigestTimeframe } from '@radar/contracts';
import { DIGEST_REPORT_TIMEFRAMES, useToast } from '@radar/shared-ui';
import { buildDigestReport } from '../../api/digest-report.js';
import { useDigestStore } from '../../state/digest-store.js';
import { useGenerateSummary } from '../AiSummary/index.js';
import { DigestTables } from './DigestTables.js';

const timeframeLabel = (days: DigestTimeframe) => (days === 1 ? 'Last 24 hours' : `Last ${days} days`);

/** Says so when a source had more items in the window than one report call returns (1,000). */
function TruncationNotice({ report }: { report: DigestReport }) {
  const cut = [
    { label: 'roadmap items', coverage: report.roadmap.coverage },
    { label: 'Message Center items', coverage: report.messageCenter.coverage },
  ].filter(({ coverage }) => coverage.total > coverage.included);
  if (cut.length === 0) return null;
  return (
    <Alert severity="warning" role="status">
      This report is incomplete: it holds the first {DIGEST_REPORT_LIMIT.toLocaleString('en-US')} items per source.{' '}
      {cut.map(({ label, coverage }) => `${coverage.included.toLocaleString('en-US')} of ${coverage.total.toLocaleString('en-US')} ${label}`).join(' and ')} are
      included. Choose a shorter timeframe to see everything.
    </Alert>
  );
}

/** Digest report: pick 1, 7 or 30 days, generate, read the tables, then optionally summarise. */
export function DigestReportCard() {
  const { toast } = useToast();
  const report = useDigestStore((s) => s.report);
  const setReport = useDigestStore((s) => s.setReport);
  const [timeframe, setTimeframe] = useState<DigestTimeframe>(7);
  const [building, setBuilding] = useState(false);
  const { generate, generating } = useGenerateSummary();

  const build = async () => {
    setBuilding(true);
    try {
      setReport(await buildDigestReport(timeframe));
    } catch {
      toast({ title: 'Error', description: 'Failed to generate digest report.', variant: 'destructive' });
    } finally {
      setBuilding(false);
    }
  };

  const counts = report
    ? [report.roadmap.newItems, report.roadmap.changedItems, report.messageCenter.newItems, report.messageCenter.updatedItems].map((l) => l.length)
    : [];
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Digest Report
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={timeframe}
            onChange={(_, value: DigestTimeframe | null) => value && setTimeframe(value)}
            aria-label="Timeframe"
          >
            {DIGEST_REPORT_TIMEFRAMES.map((days) => (
              <ToggleButton key={days} value={days}>
                {timeframeLabel(days)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button variant="contained" onClick={() => void build()} disabled={building}>
            {building ? 'Generating...' : 'Generate Report'}
          </Button>
          <Button variant="outlined" onClick={() => report && void generate(report, { kind: 'report' })} disabled={!report || generating}>
            {generating ? 'Generating summary...' : 'Generate AI Summary'}
          </Button>
        </Stack>
        {report ? (
          <Typography sx={{ mt: 2 }} role="status">
            {timeframeLabel(report.timeframe)}: {counts[0]} new and {counts[1]} updated roadmap items, {counts[2]} new and {counts[3]} updated Message Center
            items.
          </Typography>
        ) : null}
      </Paper>
      {report ? <TruncationNotice report={report} /> : null}
      {report ? <DigestTables report={report} /> : null}
    </Stack>
  );
}
