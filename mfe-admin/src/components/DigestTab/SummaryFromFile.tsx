import { useRef, type ChangeEvent } from 'react';
import { Button, Paper, Typography } from '@mui/material';
import { useToast } from '@radar/shared-ui';
import { parseUploadedReport } from '../../api/digest-report.js';
import { useGenerateSummary } from '../AiSummary/index.js';

/** Reads a File as text (FileReader: Blob.text() is missing in some embedded browsers and in jsdom). */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

/** Summarise an uploaded report: the file is parsed as JSON, or else sent as plain text. */
export function SummaryFromFile() {
  const { toast } = useToast();
  const { generate, generating } = useGenerateSummary();
  const input = useRef<HTMLInputElement>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    let parsed;
    try {
      parsed = parseUploadedReport(await readFileText(file));
    } catch {
      toast({ title: 'Error', description: 'Failed to process file. Please try again.', variant: 'destructive' });
      return;
    }
    await generate(parsed.data, { kind: 'file', fileName: file.name, format: parsed.kind });
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Summarise a File
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Upload a digest report saved as JSON. A file that is not JSON is summarised as plain text.
      </Typography>
      <input
        ref={input}
        type="file"
        accept=".json,application/json,.txt,text/plain"
        hidden
        onChange={(event) => void onFile(event)}
        data-testid="summary-file-input"
        aria-label="Report file"
      />
      <Button variant="outlined" onClick={() => input.current?.click()} disabled={generating}>
        {generating ? 'Generating summary...' : 'Upload JSON'}
      </Button>
    </Paper>
  );
}
