import { describe, expect, it } from '@jest/globals';
import { createElement } from 'react';
import { renderMail } from '../render.js';
import { ItemChangeMail, itemChangeSubject, itemChangeText, type ItemChangeMailItem, type ItemChangeMailProps } from './ItemChangeMail.js';
import { WeeklyDigestMail, weeklyDigestText, type WeeklyDigestMailProps } from './WeeklyDigestMail.js';

const item = (over: Partial<ItemChangeMailItem> = {}): ItemChangeMailItem => ({
  sourceLabel: 'Roadmap',
  idLabel: 'Roadmap ID 1',
  title: 'Teams: <b>bold</b> & more',
  url: 'https://radar.example/roadmap/1',
  kind: 'changed',
  statusChange: null,
  fields: [{ label: 'Release date', from: 'March CY2026', to: 'April CY2026' }],
  unsubscribeUrl: 'https://radar.example/api/unsubscribe?token=a.b',
  ...over,
});

describe('ItemChangeMail', () => {
  it('names single changes in the subject', () => {
    expect(itemChangeSubject([item()])).toBe('Updated: Teams: <b>bold</b> & more');
    expect(itemChangeSubject([item({ statusChange: { from: 'In development', to: 'Launched' } })])).toBe(
      'Status change: Teams: <b>bold</b> & more is now Launched',
    );
    expect(itemChangeSubject([item({ kind: 'removed' })])).toBe('Removed: Teams: <b>bold</b> & more');
    expect(itemChangeSubject([item(), item({ url: 'x' })])).toBe('2 items you follow changed');
  });

  it('renders HTML (escaped, dark-mode ready) and a plain-text part with the same facts', async () => {
    const props: ItemChangeMailProps = {
      publicUrl: 'https://radar.example',
      firstName: 'Ann',
      items: [
        item({ statusChange: { from: 'In development', to: 'Launched' } }),
        item({ url: 'https://radar.example/message/MC1', sourceLabel: 'Message Center', idLabel: 'MC1', kind: 'removed', fields: [] }),
      ],
      unsubscribeAllUrl: 'https://radar.example/api/unsubscribe?token=all.sig',
      settingsUrl: 'https://radar.example/notifications',
    };
    const { html, text } = await renderMail(createElement(ItemChangeMail, props), itemChangeText(props));
    expect(html).toContain('<meta name="color-scheme" content="light dark"');
    expect(html).toContain('Teams: &lt;b&gt;bold&lt;/b&gt; &amp; more');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain('Status changed: In development → Launched');
    expect(html).toContain('This item was removed from the Message Center feed.');
    expect(html).toContain('href="https://radar.example/api/unsubscribe?token=all.sig"');
    expect(text).toContain('Hi Ann');
    expect(text).toContain('>> STATUS CHANGED: In development -> Launched');
    expect(text).toContain('* Release date: March CY2026 -> April CY2026');
    expect(text).toContain('Unsubscribe from these items: https://radar.example/api/unsubscribe?token=all.sig');
  });
});

describe('WeeklyDigestMail', () => {
  it('shows the empty text when nothing happened', async () => {
    const props: WeeklyDigestMailProps = {
      publicUrl: 'https://radar.example',
      startFormatted: 'Feb 1, 2026',
      endFormatted: 'Feb 8, 2026',
      featured: [],
      sections: [{ title: 'New on the roadmap', entries: [], more: 0 }],
      digestPageUrl: 'https://radar.example/weekly-digest',
      unsubscribeUrl: 'https://radar.example/api/unsubscribe?token=d.s',
    };
    const { html, text } = await renderMail(createElement(WeeklyDigestMail, props), weeklyDigestText(props));
    expect(html).toContain('No new or updated Microsoft 365 items found in the past 7 days.');
    expect(text).toContain('No new or updated Microsoft 365 items found in the past 7 days.');
    expect(text).toContain('Unsubscribe from the weekly digest: https://radar.example/api/unsubscribe?token=d.s');
  });

  it('counts entries beyond the mail limit and links to the page', async () => {
    const entry = { title: 'T', url: 'https://radar.example/roadmap/1', idLabel: 'Roadmap ID 1', meta: 'Launched', preview: 'P' };
    const props: WeeklyDigestMailProps = {
      publicUrl: 'https://radar.example',
      startFormatted: 'Feb 1, 2026',
      endFormatted: 'Feb 8, 2026',
      featured: [],
      sections: [{ title: 'New on the roadmap', entries: [entry], more: 4 }],
      digestPageUrl: 'https://radar.example/weekly-digest',
      unsubscribeUrl: 'https://radar.example/api/unsubscribe?token=d.s',
    };
    const text = weeklyDigestText(props);
    expect(text).toContain('== New on the roadmap (5) ==');
    expect(text).toContain('and 4 more: https://radar.example/weekly-digest');
  });

  it('shows an entry’s relevance as a chip with its reason, in words in the text part', async () => {
    const entry = {
      title: 'T',
      url: 'https://radar.example/roadmap/1',
      idLabel: 'Roadmap ID 1',
      meta: 'Launched',
      preview: 'P',
      relevance: { level: 'high' as const, label: 'High relevance', reason: 'Contoso: 1,240 people used Teams in the last 30 days' },
    };
    const props: WeeklyDigestMailProps = {
      publicUrl: 'https://radar.example',
      startFormatted: 'Feb 1, 2026',
      endFormatted: 'Feb 8, 2026',
      featured: [],
      sections: [{ title: 'New on the roadmap', entries: [entry, { ...entry, title: 'U', relevance: undefined }], more: 0 }],
      digestPageUrl: 'https://radar.example/weekly-digest',
      unsubscribeUrl: 'https://radar.example/api/unsubscribe?token=d.s',
    };
    const { html, text } = await renderMail(createElement(WeeklyDigestMail, props), weeklyDigestText(props));
    expect(html).toMatch(/<span data-relevance="high"[^>]*>High relevance<\/span>Contoso: 1,240 people used Teams in the last 30 days/);
    expect(html.match(/data-relevance=/g)).toHaveLength(1);
    expect(text).toContain(
      '* T\n  Roadmap ID 1 · Launched\n  High relevance: Contoso: 1,240 people used Teams in the last 30 days\n  https://radar.example/roadmap/1',
    );
    expect(text).toContain('* U\n  Roadmap ID 1 · Launched\n  https://radar.example/roadmap/1');
  });
});
