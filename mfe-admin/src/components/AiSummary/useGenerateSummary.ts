import { useState } from 'react';
import { useToast } from '@radar/shared-ui';
import { adminWrites } from '../../api/admin-writes.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { useDigestStore, type SummarySource } from '../../state/digest-store.js';

/** Asks the server for a summary of `reportData` and keeps it in the digest store. */
export function useGenerateSummary() {
  const { toast } = useToast();
  const setSummary = useDigestStore((s) => s.setSummary);
  const [generating, setGenerating] = useState(false);
  const generate = async (reportData: unknown, source: SummarySource) => {
    setGenerating(true);
    try {
      const result = await adminWrites.generateSummary(reportData);
      setSummary({ ...result, source });
      toast({ title: 'Summary generated', description: result.kind === 'ai' ? 'AI summary is ready.' : 'Extractive summary is ready.' });
    } catch (error) {
      toast({ title: 'Error', description: `Failed to generate AI summary: ${errorMessageOf(error)}`, variant: 'destructive' });
    } finally {
      setGenerating(false);
    }
  };
  return { generate, generating };
}
