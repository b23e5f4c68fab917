import { Alert, Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { useDigestStore } from '../../state/digest-store.js';
import { sanitizeSummaryHtml } from './sanitize.js';

/** The current summary: sanitised HTML, labelled AI (with its model) or extractive, and what it summarises. */
export function AiSummaryView() {
  const summary = useDigestStore((s) => s.summary);
  if (!summary) return null;
  const from =
    summary.source.kind === 'report' ? 'the digest report' : `${summary.source.fileName} (${summary.source.format === 'json' ? 'JSON' : 'plain text'})`;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Summary">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h3">
          Summary
        </Typography>
        {summary.kind === 'ai' ? (
          <Chip size="small" color="primary" label={summary.model ? `AI summary · ${summary.model}` : 'AI summary'} />
        ) : (
          <Chip size="small" variant="outlined" label="Extractive summary" />
        )}
        <Typography variant="body2" color="text.secondary">
          from {from}
        </Typography>
      </Stack>
      {summary.kind === 'extractive' ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          No AI service is configured on this server, so this summary was extracted from the report itself.
        </Alert>
      ) : null}
      <Box
        data-testid="summary-html"
        sx={{ '& h2, & h3': { fontSize: '1.05rem', mt: 2 }, '& ul': { pl: 3 }, '& a': { color: 'primary.main' } }}
        dangerouslySetInnerHTML={{ __html: sanitizeSummaryHtml(summary.summary) }}
      />
    </Paper>
  );
}
