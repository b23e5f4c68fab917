import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { useDigestStore } from '../../state/digest-store.js';
import { adminSession } from '../../test-utils/fixtures.js';
import { AiSummaryTab } from './AiSummaryTab.js';

beforeEach(() => useDigestStore.setState({ report: null, summary: null }));

const report = {
  generatedAt: '2026-03-10T12:00:00.000Z',
  timeframe: 7 as const,
  roadmap: { newItems: [], changedItems: [], coverage: { total: 0, included: 0 } },
  messageCenter: { newItems: [], updatedItems: [], coverage: { total: 0, included: 0 } },
};

describe('AiSummaryTab', () => {
  it('needs a report first', () => {
    stubFetch({ ...adminSession });
    renderWithProviders(<AiSummaryTab />);
    expect(screen.getByText(/Generate a digest report on the Digest tab first/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate AI Summary' })).toBeDisabled();
  });

  it('summarises the current report and labels an AI answer', async () => {
    useDigestStore.setState({ report });
    const { calls } = stubFetch({
      ...adminSession,
      'POST /api/admin/generate-summary': { body: { summary: '<p>All quiet this week.</p>', kind: 'ai', model: 'llama-3' } },
    });
    renderWithProviders(<AiSummaryTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Generate AI Summary' }));
    expect(await screen.findByText('All quiet this week.')).toBeInTheDocument();
    expect(screen.getByText('AI summary · llama-3')).toBeInTheDocument();
    expect(screen.queryByText(/No AI service is configured/)).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reportData: report });
  });
});
