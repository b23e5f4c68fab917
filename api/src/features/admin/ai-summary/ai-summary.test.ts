import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAiServer, type AiServer } from '../../../../test/ai-server.js';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { signIn } from '../../../../test/factories.js';
import { MAX_PROMPT_CHARS } from './ai-summary.client.js';

/** A digest report as the admin page builds it (generatedAt, timeframe, roadmap and messageCenter lists). */
const REPORT = {
  generatedAt: '2026-02-07T12:00:00.000Z',
  timeframe: 7,
  roadmap: {
    newItems: [
      {
        itemId: '500001',
        title: 'Microsoft Teams: Meeting recap in chat',
        product: 'Microsoft Teams',
        status: 'In development',
        description: '<p>Recaps <b>appear</b> in chat.</p>',
      },
      {
        itemId: '500002',
        title: 'SharePoint: New site templates',
        product: 'SharePoint',
        status: 'Rolling out',
        link: 'https://www.microsoft.com/microsoft-365/roadmap?id=500002',
      },
    ],
    changedItems: [{ itemId: '500003', title: 'Outlook: Delayed send', product: 'Outlook', status: 'Launched' }],
  },
  messageCenter: {
    newItems: [
      {
        messageId: 'MC900001',
        title: 'Exchange Online: Retirement of basic auth for SMTP',
        services: 'Exchange Online',
        isMajorChange: true,
        actionRequiredByDate: '2026-03-01T00:00:00Z',
        summary: 'Move to OAuth before March.',
        link: 'https://admin.microsoft.com/#/MessageCenter/:/messages/MC900001',
      },
    ],
    updatedItems: [
      { messageId: 'MC900002', title: 'Teams: Updated rollout <script>alert(1)</script>', service: ['Microsoft Teams'], link: 'javascript:alert(1)' },
    ],
  },
};

async function adminOf(t: TestContext) {
  return (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
}

describe('generate-summary without an AI service (extractive)', () => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof adminOf>>;
  beforeAll(async () => {
    t = await createTestContext();
    admin = await adminOf(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('summarises the report grouped by product, attention items first, with links', async () => {
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: REPORT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'extractive', model: null });
    const html: string = res.body.summary;
    expect(html).toContain('<strong>Extractive summary (no AI service configured)</strong>');
    expect(html).toContain('covering 7 days');
    expect(html).toContain('2 new and 1 updated roadmap items');
    expect(html).toContain('1 new and 1 updated Message Center posts');
    expect(html).toContain('1 item needs attention');
    // Attention section comes before the product groups and names the date.
    const attention = html.indexOf('Major changes and action required');
    expect(attention).toBeGreaterThan(-1);
    expect(html.indexOf('Retirement of basic auth')).toBeGreaterThan(attention);
    expect(html).toContain('Action required by 2026-03-01');
    expect(html).toContain('<h3>Microsoft Teams (2)</h3>');
    expect(html).toContain('<h3>Exchange Online (1)</h3>');
    // Given links are kept; missing ones point at the dashboard; unsafe ones never survive.
    expect(html).toContain('href="https://www.microsoft.com/microsoft-365/roadmap?id=500002"');
    expect(html).toContain('href="http://localhost:8080/dashboard?roadmap=500001"');
    expect(html).toContain('href="http://localhost:8080/dashboard?message=MC900002"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).not.toMatch(/<script|javascript:/i);
    expect(html).toContain('Recaps appear in chat.');
  });

  it('accepts the report as a JSON string (an uploaded file)', async () => {
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: JSON.stringify(REPORT) });
    expect(res.status).toBe(200);
    expect(res.body.summary).toContain('<h3>Microsoft Teams (2)</h3>');
  });

  it('handles plain text (a file that is not JSON)', async () => {
    const text = 'Weekly notes\nSomething minor changed\nMC123456 requires action required by admins <b>soon</b>\n';
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: text });
    expect(res.status).toBe(200);
    const html: string = res.body.summary;
    expect(html).toContain('Extractive summary (no AI service configured)');
    expect(html).toContain('Key lines from the uploaded text (3 lines)');
    // The important line first; markup in the text is escaped, not rendered.
    expect(html.indexOf('MC123456')).toBeLessThan(html.indexOf('Weekly notes'));
    expect(html).toContain('&lt;b&gt;soon&lt;/b&gt;');
  });

  it('says so when the report is empty', async () => {
    const res = await admin
      .post('/api/admin/generate-summary')
      .send({ reportData: { generatedAt: '2026-02-07T12:00:00Z', timeframe: '1 day', roadmap: [], messageCenter: { newItems: [], updatedItems: [] } } });
    expect(res.body.summary).toContain('No new or updated Microsoft 365 items in this report.');
  });

  it('requires reportData', async () => {
    for (const body of [{}, { reportData: null }]) {
      const res = await admin.post('/api/admin/generate-summary').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('reportData');
    }
  });
});

describe('generate-summary with an OpenAI-compatible service', () => {
  let ai: AiServer;
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof adminOf>>;
  beforeAll(async () => {
    ai = await startAiServer();
    t = await createTestContext({ AI_BASE_URL: ai.baseUrl, AI_API_KEY: 'sk-test-key', AI_MODEL: 'briefing-model', AI_TIMEOUT_MS: '300' });
    admin = await adminOf(t);
  });
  afterAll(async () => {
    await t.close();
    await ai.close();
  });

  it('sends a compact report with a briefing prompt and returns the sanitised HTML', async () => {
    ai.setMode({
      kind: 'ok',
      model: 'briefing-model-2026',
      content:
        '```html\n<h3>Action required</h3><p onclick="x()">Move SMTP to OAuth.</p><script>alert(1)</script><a href="https://example.com/a">link</a>\n```',
    });
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: REPORT });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'ai',
      model: 'briefing-model-2026',
      summary: '<h3>Action required</h3><p>Move SMTP to OAuth.</p><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">link</a>',
    });
    const sent = ai.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.authorization).toBe('Bearer sk-test-key');
    expect(sent.body.model).toBe('briefing-model');
    const [system, user] = sent.body.messages!;
    expect(system!.role).toBe('system');
    expect(system!.content).toMatch(/Microsoft 365 administrators/);
    expect(system!.content).toMatch(/HTML fragment/);
    expect(user!.role).toBe('user');
    expect(user!.content).toContain('Timeframe: 7 days.');
    expect(user!.content).toContain('Roadmap: 2 new, 1 updated.');
    expect(user!.content).toContain('MESSAGE CENTER - NEW (1):');
    expect(user!.content).toContain(
      '[MC900001] | Exchange Online: Retirement of basic auth for SMTP | products: Exchange Online | MAJOR CHANGE | action required by: 2026-03-01T00:00:00Z | link: https://admin.microsoft.com/#/MessageCenter/:/messages/MC900001',
    );
    expect(user!.content).not.toContain('<p>');
  });

  it('turns a Markdown answer into HTML', async () => {
    ai.setMode({ kind: 'ok', content: '## Overview\nTwo **big** changes.\n\n- Teams recap [MC1](https://example.com/mc1)\n- Outlook' });
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: 'plain text report' });
    expect(res.status).toBe(200);
    expect(res.body.summary).toBe(
      '<h3>Overview</h3><p>Two <strong>big</strong> changes.</p><ul><li>Teams recap <a href="https://example.com/mc1" target="_blank" rel="noopener noreferrer">MC1</a></li><li>Outlook</li></ul>',
    );
    expect(ai.requests.at(-1)!.body.messages![1]!.content).toContain('plain text report');
  });

  it('bounds the size of what it sends', async () => {
    ai.setMode({ kind: 'ok', content: '<p>ok</p>' });
    const many = Array.from({ length: 1000 }, (_, i) => ({
      itemId: String(600000 + i),
      title: `Feature ${i} ${'x'.repeat(100)}`,
      product: 'Teams',
      description: 'y'.repeat(200),
    }));
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: { roadmap: { newItems: many } } });
    expect(res.status).toBe(200);
    const content = ai.requests.at(-1)!.body.messages![1]!.content;
    expect(content.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS + 100);
    expect(content).toMatch(/\[\d+ more items not shown for length\]/);
  });

  it('carries every Message Center new and updated item with its link, however long the roadmap list is', async () => {
    ai.setMode({ kind: 'ok', content: '<p>ok</p>' });
    const roadmap = Array.from({ length: 1000 }, (_, i) => ({
      itemId: String(700000 + i),
      title: `Roadmap feature ${i} ${'x'.repeat(80)}`,
      product: 'Teams',
      description: 'y'.repeat(240),
    }));
    const message = (n: number) => ({
      messageId: `MC8${String(n).padStart(5, '0')}`,
      title: `Message ${n}`,
      services: 'Exchange Online',
      summary: 'z'.repeat(240),
      link: `https://radar.example/dashboard?message=MC8${String(n).padStart(5, '0')}`,
    });
    const newMessages = Array.from({ length: 40 }, (_, i) => message(i));
    const updatedMessages = Array.from({ length: 40 }, (_, i) => message(100 + i));
    const res = await admin
      .post('/api/admin/generate-summary')
      .send({ reportData: { timeframe: 30, roadmap: { newItems: roadmap }, messageCenter: { newItems: newMessages, updatedItems: updatedMessages } } });
    expect(res.status).toBe(200);
    const content = ai.requests.at(-1)!.body.messages![1]!.content;
    expect(content.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS + 100);
    for (const m of [...newMessages, ...updatedMessages]) expect(content).toContain(`link: ${m.link}`);
    expect(content).toContain('MESSAGE CENTER - NEW (40):');
    expect(content).toContain('MESSAGE CENTER - UPDATED (40):');
    // The roadmap rows share what is left of the budget, with their products.
    expect(content).toMatch(/\[700000\] \| Roadmap feature 0 x+ \| products: Teams \| link: /);
    expect(content).toMatch(/\[\d+ more items not shown for length\]/);
  });

  it('shortens summaries before it leaves any item out', async () => {
    ai.setMode({ kind: 'ok', content: '<p>ok</p>' });
    const items = Array.from({ length: 90 }, (_, i) => ({
      itemId: String(800000 + i),
      title: `Feature ${i}`,
      product: 'Planner',
      description: 's'.repeat(240),
    }));
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: { roadmap: { newItems: items } } });
    expect(res.status).toBe(200);
    const content = ai.requests.at(-1)!.body.messages![1]!.content;
    for (const item of items) expect(content).toContain(`[${item.itemId}] | ${item.title} | products: Planner`);
    expect(content).not.toMatch(/more items not shown/);
    expect(content.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
  });

  it('answers 504 when the service is too slow', async () => {
    ai.setMode({ kind: 'slow', delayMs: 2000 });
    const started = Date.now();
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: REPORT });
    expect(res.status).toBe(504);
    expect(res.body.error.message).toBe('AI summary timed out');
    expect(Date.now() - started).toBeLessThan(1800);
  });

  it("answers 502 with the upstream's message when the service fails", async () => {
    ai.setMode({ kind: 'error', status: 500, message: 'The model is overloaded' });
    const res = await admin.post('/api/admin/generate-summary').send({ reportData: REPORT });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe('AI service error (500): The model is overloaded');
    ai.setMode({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const auth = await admin.post('/api/admin/generate-summary').send({ reportData: REPORT });
    expect(auth.status).toBe(502);
    expect(auth.body.error.message).toContain('Incorrect API key provided');
  });

  it('answers 502 when the service cannot be reached', async () => {
    const down = await startAiServer();
    await down.close();
    const t2 = await createTestContext({ AI_BASE_URL: down.baseUrl });
    try {
      const res = await (await adminOf(t2)).post('/api/admin/generate-summary').send({ reportData: REPORT });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toMatch(/^AI service unreachable/);
    } finally {
      await t2.close();
    }
  });
});
