import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useDigestStore } from '../../state/digest-store.js';
import { AiSummaryView } from './AiSummaryView.js';
import { useGenerateSummary } from './useGenerateSummary.js';

/** AI Summary: generate a summary of the current digest report and show it. */
export function AiSummaryTab() {
  const report = useDigestStore((s) => s.report);
  const { generate, generating } = useGenerateSummary();
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          AI Summary
        </Typography>
        {report ? (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Summarises the {report.timeframe}-day digest report generated {new Date(report.generatedAt).toLocaleString('en-US')}.
          </Typography>
        ) : (
          <Alert severity="info" sx={{ mb: 2 }}>
            Generate a digest report on the Digest tab first, or upload a JSON file there.
          </Alert>
        )}
        <Button variant="contained" disabled={!report || generating} onClick={() => report && void generate(report, { kind: 'report' })}>
          {generating ? 'Generating summary...' : 'Generate AI Summary'}
        </Button>
      </Paper>
      <AiSummaryView />
    </Stack>
  );
}
