import { describe, expect, it } from '@jest/globals';
import { endpointUrl, endpoints } from '@radar/contracts';
import { changeTypesFor, parseUploadedReport, reportQuery, splitNewAndChanged } from './digest-report.js';
import { messageItem, roadmapItem } from '../test-utils/fixtures.js';

describe('digest report helpers', () => {
  it('names the change types per timeframe', () => {
    expect(changeTypesFor(1)).toEqual(['new_1_day', 'changed_1_day']);
    expect(changeTypesFor(7)).toEqual(['new_7days', 'changed_7days']);
    expect(changeTypesFor(30)).toEqual(['new_30days', 'changed_30days']);
    expect(endpointUrl(endpoints.items.messageItems, { query: reportQuery(7) })).toBe(
      '/api/message-center/items?changeTypes=new_7days&changeTypes=changed_7days&page=1&limit=1000',
    );
  });

  it('splits items created in the window (new) from the others (changed), each with a dashboard link', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const fresh = roadmapItem({ createdDate: '2026-03-08T00:00:00Z' });
    const old = roadmapItem({ itemId: '1', createdDate: '2025-01-01T00:00:00Z', description: '<p>Hello <b>world</b></p>' });
    const { newItems, changed } = splitNewAndChanged([fresh, old], 7, now, 'https://radar.example');
    expect(newItems.map((i) => i.itemId)).toEqual(['412345']);
    expect(changed.map((i) => i.itemId)).toEqual(['1']);
    expect(changed[0].summary).toBe('Hello world');
    // Roadmap rows keep their products.
    expect(fresh.product).toBeTruthy();
    expect(newItems[0].products).toEqual((fresh.product ?? '').split(',').map((p) => p.trim()));
    expect(newItems[0].link).toBe('https://radar.example/dashboard?roadmap=412345');
    const message = splitNewAndChanged([messageItem({ publishedDate: '2026-03-09T00:00:00Z' })], 7, now, 'https://radar.example');
    expect(message.newItems[0].link).toBe('https://radar.example/dashboard?message=MC100');
  });

  it('parses an upload as JSON, or else keeps it as plain text', () => {
    expect(parseUploadedReport('{"roadmap":[]}')).toEqual({ kind: 'json', data: { roadmap: [] } });
    expect(parseUploadedReport('Weekly notes: Teams changes')).toEqual({ kind: 'text', data: 'Weekly notes: Teams changes' });
    expect(parseUploadedReport('{broken')).toEqual({ kind: 'text', data: '{broken' });
  });
});
