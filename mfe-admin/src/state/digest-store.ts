import { create } from 'zustand';
import type { DigestReport, GenerateSummaryResponse } from '@radar/contracts';

/** Where the current summary came from: the generated report or an uploaded file. */
export type SummarySource = { kind: 'report' } | { kind: 'file'; fileName: string; format: 'json' | 'text' };

interface DigestState {
  /** The last generated report; the AI Summary tab summarises it. */
  report: DigestReport | null;
  summary: (GenerateSummaryResponse & { source: SummarySource }) | null;
  setReport: (report: DigestReport | null) => void;
  setSummary: (summary: DigestState['summary']) => void;
}

/** Shared by the Digest and AI Summary tabs, so switching tabs keeps the report and the summary. */
export const useDigestStore = create<DigestState>((set) => ({
  report: null,
  summary: null,
  setReport: (report) => set({ report }),
  setSummary: (summary) => set({ summary }),
}));
