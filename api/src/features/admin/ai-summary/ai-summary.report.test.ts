import { describe, expect, it } from '@jest/globals';
import { extractiveSummary } from './ai-summary.extractive.js';
import { normalizeReport } from './ai-summary.report.js';

const URL = 'https://radar.example';

describe('normalizeReport', () => {
  it('reads a roadmap array and unified items, telling the sources apart', () => {
    const report = normalizeReport(
      {
        generatedAt: '2026-02-07T00:00:00Z',
        timeframe: '30 days',
        roadmap: [{ id: 'roadmap-1', itemId: '1', title: 'A', product: 'Teams, Outlook', changeType: 'changed' }],
        items: [{ id: 'messages-MC2', source: 'messages', messageId: 'MC2', title: 'B', services: 'Exchange Online' }],
      },
      URL,
    );
    expect(report).toEqual({
      kind: 'report',
      generatedAt: '2026-02-07T00:00:00Z',
      timeframe: '30 days',
      items: [
        expect.objectContaining({ source: 'roadmap', change: 'updated', id: '1', products: ['Teams', 'Outlook'], link: `${URL}/dashboard?roadmap=1` }),
        expect.objectContaining({ source: 'messages', change: 'listed', id: 'MC2', products: ['Exchange Online'], link: `${URL}/dashboard?message=MC2` }),
      ],
    });
  });

  it('keeps the products of roadmap rows that also carry an empty service list (the admin page report)', () => {
    const report = normalizeReport(
      {
        roadmap: {
          newItems: [
            { itemId: '9', title: 'A', product: 'Microsoft Teams, Outlook', service: [] },
            { itemId: '10', title: 'B', products: ['Planner'], service: [] },
          ],
        },
        messageCenter: { updatedItems: [{ messageId: 'MC3', title: 'C', products: [], service: ['Exchange Online'] }] },
      },
      URL,
    );
    expect(report.kind === 'report' && report.items.map((i) => i.products)).toEqual([['Microsoft Teams', 'Outlook'], ['Planner'], ['Exchange Online']]);
  });

  it('treats JSON that is not a report, and non-JSON text, as text', () => {
    expect(normalizeReport({ hello: 'world' }, URL)).toEqual({ kind: 'text', text: '{\n  "hello": "world"\n}' });
    expect(normalizeReport('not json {', URL)).toEqual({ kind: 'text', text: 'not json {' });
    expect(normalizeReport('"just a string"', URL)).toEqual({ kind: 'text', text: '"just a string"' });
    expect(normalizeReport(42, URL)).toMatchObject({ kind: 'text' });
  });

  it('cuts very long text and bounds the extractive output', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'z'.repeat(20)}`).join('\n');
    const report = normalizeReport(text, URL);
    expect(report.kind === 'text' && report.text.length).toBeLessThanOrEqual(20_000);
    const html = extractiveSummary(report);
    expect(html.match(/<li>/g)).toHaveLength(20);
    expect(html).toMatch(/…and \d+ more lines\./);
  });
});
