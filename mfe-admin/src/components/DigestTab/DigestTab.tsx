import { Stack } from '@mui/material';
import { AiSummaryView } from '../AiSummary/index.js';
import { DigestReportCard } from './DigestReportCard.js';
import { SummaryFromFile } from './SummaryFromFile.js';
import { TestNotificationForm } from './TestNotificationForm.js';

/** Digest: the report (1, 7 or 30 days), its optional summary, a summary of an uploaded file, and a test mail. */
export function DigestTab() {
  return (
    <Stack spacing={3}>
      <DigestReportCard />
      <SummaryFromFile />
      <AiSummaryView />
      <TestNotificationForm />
    </Stack>
  );
}
