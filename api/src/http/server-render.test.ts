import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { DEFAULT_LIST_PARAMS, FIRST_SCREEN_ROWS, SERVER_RENDER, itemListUrl, type ItemListResponse, type RuntimeConfig } from '@radar/contracts';
import { createApp } from '../app.js';
import { firstScreenList } from './server-render.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { createUser, insertRoadmapItem, sessionCookieFor } from '../../test/factories.js';
import { captureLog } from '../../test/log-capture.js';

/**
 * The api's side of the server render (server-render.ts, static-bundles.ts) against a real database: which requests
 * get a server-rendered page, what goes into it (the answers the api gives the same caller, escaped for a <script>),
 * whose it is (a guest's, or one signed-in user's alone), when a
 * render is reused and when it is redone, and that any failure leaves the plain page. The render bundle itself is the
 * shell's build (shell/dist-server); here a small CommonJS file with the same exports stands in for it and writes the
 * data it was given into its markup, with a counter that tells a new render from a reused one. The real bundle is
 * hydrated in Chromium by the e2e suite (e2e/tests/server-render.spec.ts).
 */

const RENDERER = `
let renders = 0;
let prepared = false;
const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
exports.prepare = async () => { prepared = true; };
exports.remoteVersions = { dashboard: '0.1.0+abcd1234', admin: '0.1.0+abcd1234' };
exports.rendersPath = (pathname) => ['/', '/dashboard', '/notifications', '/admin'].includes(pathname);
exports.renderPage = ({ url, data }) => {
  if (!prepared) throw new Error('renderPage before prepare');
  if (url.includes('explode')) throw new Error('the render failed');
  renders += 1;
  const list = Object.values(data).find((answer) => answer.items);
  const session = data['/api/auth/session-user'];
  const rows = list ? list.items.map((item) => '<tr data-item-id="' + item.id + '"><td>' + escape(item.title) + '</td><td>' + escape(item.moderatorNotes ?? '') + '</td></tr>').join('') : '';
  const boundary = url.includes('boundary') ? '<!--$!--><template></template><!--/$-->' : '';
  const viewer = session ? '<p class="viewer">' + escape(session.user.email) + '</p>' : '';
  return { html: '<main data-render="' + renders + '"><h1>' + escape(url) + '</h1>' + viewer + boundary + '<table>' + rows + '</table></main>', styles: '<style data-emotion="css abc">.css-abc{color:red}</style>' };
};
`;

const TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"/><title>M365 Radar</title><script defer="defer" src="/main.js"></script></head>' +
  '<body><noscript>M365 Radar needs JavaScript.</noscript><div id="root"></div></body></html>';

const LIST_URL = itemListUrl(DEFAULT_LIST_PARAMS);
const EVIL_TITLE = "Teams </script><script>alert(1)</script> <!-- done, for $$5 ($& $' $`)";

let t: TestContext;
let root: string;
let app: ReturnType<typeof createApp>;
let cookie: string;
let moderatorCookie: string;
let adminCookie: string;
const SESSION_URL = '/api/auth/session-user';
const VISIT_URL = '/api/dashboard/visit';
const NOTE = 'Check with the Teams owners before the rollout';
const warnings: Record<string, unknown>[] = [];

function runtimeConfig(): RuntimeConfig {
  return {
    remotes: { dashboard: '/remotes/dashboard/mf-manifest.json', admin: '/remotes/admin/mf-manifest.json', digest: '/remotes/digest/mf-manifest.json' },
    supportEmail: 'support@example.com',
    sisterProductUrl: 'https://example.com/',
    sisterProductName: 'Sister',
  };
}

function capture() {
  return captureLog('warn', warnings).log;
}

/** The api's own copy of a remote, as its build states its version (metaData.radar, as federation.cjs writes it). */
function writeDashboardManifest(version: string, remote: 'dashboard' | 'admin' = 'dashboard') {
  const dir = path.join(root, `mfe-${remote}`, 'dist');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'mf-manifest.json');
  const radar = { app: remote, version, commit: version.split('+')[1], shared: { react: '^19.3.1' } };
  fs.writeFileSync(file, JSON.stringify({ id: `radar_${remote}`, metaData: { radar } }));
  // A new build is a new file time, as a rebuild writes it.
  const at = new Date(Date.now() + Math.floor(Math.random() * 1e6));
  fs.utimesSync(file, at, at);
}

/** The parts of a page the server rendered: the markup in #root, the data script's JSON, the render counter. */
function partsOf(html: string) {
  const open = `<script type="application/json" id="${SERVER_RENDER.dataElementId}">`;
  const start = html.indexOf(open);
  const rootMatch = /<div id="root"([^>]*)>(.*?)<\/div><script type="application\/json"/s.exec(html);
  if (start < 0 || !rootMatch) return undefined;
  const end = html.indexOf('</script>', start);
  return {
    rootAttributes: rootMatch[1].trim(),
    markup: rootMatch[2],
    dataText: html.slice(start + open.length, end),
    data: JSON.parse(html.slice(start + open.length, end)) as Record<
      string,
      { items: { id: number; title: string; moderatorNotes?: string | null }[]; total: number }
    >,
    render: Number(/data-render="(\d+)"/.exec(html)?.[1]),
  };
}

beforeAll(async () => {
  t = await createTestContext();
  for (let i = 0; i < 3; i++) await insertRoadmapItem(t.database.db, { title: `Microsoft Teams: feature ${i}` });
  await insertRoadmapItem(t.database.db, { title: EVIL_TITLE, moderatorNotes: NOTE });
  const user = await createUser(t.database.db, { email: 'reader@example.com' });
  cookie = await sessionCookieFor(t.database.db, user.id);
  const moderator = await createUser(t.database.db, { email: 'moderator@example.com', roles: ['Moderator'] });
  moderatorCookie = await sessionCookieFor(t.database.db, moderator.id);
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-ssr-'));
  fs.mkdirSync(path.join(root, 'shell', 'dist'), { recursive: true });
  fs.mkdirSync(path.join(root, 'shell', 'dist-server'), { recursive: true });
  fs.writeFileSync(path.join(root, 'shell', 'dist', 'index.html'), TEMPLATE);
  fs.writeFileSync(path.join(root, 'shell', 'dist-server', 'render-page.cjs'), RENDERER);
  writeDashboardManifest('0.1.0+abcd1234');
  writeDashboardManifest('0.1.0+abcd1234', 'admin');
  const admin = await createUser(t.database.db, { email: 'admin@example.com', roles: ['Admin'] });
  adminCookie = await sessionCookieFor(t.database.db, admin.id);
  app = createApp({ ...t.ctx, log: capture() }, { staticRoot: root, runtimeConfig });
});

afterAll(async () => {
  await t?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('the first screen rendered on the server', () => {
  it("sends a guest's /dashboard with the list the api answers, as markup and as the data the browser starts from", async () => {
    const page = await request(app).get('/dashboard').expect(200).expect('Content-Type', /html/);
    const parts = partsOf(page.text);
    expect(parts).toBeDefined();
    expect(parts!.rootAttributes).toBe(`${SERVER_RENDER.rootAttribute} inert`);
    const api = await request(app).get(LIST_URL).expect(200);
    expect(Object.keys(parts!.data)).toEqual([LIST_URL]);
    expect(parts!.data[LIST_URL]).toEqual(api.body);
    expect(parts!.markup).toContain(`<h1>/dashboard</h1>`);
    for (const item of (api.body as { items: { id: number }[] }).items) expect(parts!.markup).toContain(`data-item-id="${item.id}"`);
    // The render's styles go into <head>; the runtime config script is still the only inline script, allowed by hash.
    expect(page.text).toMatch(/<style data-emotion="css abc">[^<]*<\/style><\/head>/);
    expect(page.headers['content-security-policy']).toMatch(/script-src[^;]*'sha256-/);
    expect(page.headers['cache-control']).toBe('no-cache');
    // The entry downloads at once (preload) and runs after the page's first paint, from a script allowed by its hash.
    expect(page.text).toContain('<link rel="preload" as="script" id="radar-entry" href="/main.js">');
    expect(page.text).not.toContain('<script defer="defer" src="/main.js"></script>');
    const starter = /<script>(\(function\(\)\{var done[^<]*)<\/script><\/body>/.exec(page.text)?.[1] ?? '';
    expect(starter).toContain('requestAnimationFrame');
    expect(page.headers['content-security-policy']).toContain(`'sha256-${crypto.createHash('sha256').update(starter).digest('base64')}'`);
  });

  it('keeps the data script a data script: a title with </script> or <!-- cannot end it or change how it parses', async () => {
    const { text } = await request(app).get('/dashboard').expect(200);
    const parts = partsOf(text)!;
    expect(parts.dataText).not.toMatch(/<\/script|<!--/i);
    expect(parts.data[LIST_URL].items.map((item) => item.title)).toContain(EVIL_TITLE);
    // The page has exactly the scripts it had: the entry, the theme and the config, plus the one data script.
    expect(text.match(/<script/g)).toHaveLength(4);
  });

  it('reuses a render while the list is the same, and answers a revalidation with 304', async () => {
    const first = await request(app).get('/dashboard').expect(200);
    const again = await request(app).get('/dashboard').expect(200);
    expect(partsOf(again.text)!.render).toBe(partsOf(first.text)!.render);
    expect(again.headers.etag).toBe(first.headers.etag);
    await request(app).get('/dashboard').set('If-None-Match', first.headers.etag!).expect(304);
  });

  it('keys and renders a page by its path and the parameters it reads: a made-up query string renders nothing new', async () => {
    const first = partsOf((await request(app).get('/?r=1').expect(200)).text)!;
    const second = partsOf((await request(app).get('/?r=2&utm_source=x').expect(200)).text)!;
    expect(second.render).toBe(first.render);
    expect(first.markup).toContain('<h1>/</h1>');
    const deep = partsOf((await request(app).get('/dashboard?x=1&message=MC1&y=2').expect(200)).text)!;
    expect(deep.markup).toContain('<h1>/dashboard?message=MC1</h1>');
    expect(partsOf((await request(app).get('/dashboard?message=MC1&z=9').expect(200)).text)!.render).toBe(deep.render);
    expect(partsOf((await request(app).get('/?signin=1').expect(200)).text)!.markup).toContain('<h1>/?signin=1</h1>');
  });

  it('renders again after a write to the items: the page never shows an older list than the api', async () => {
    const before = await request(app).get('/dashboard').expect(200);
    await insertRoadmapItem(t.database.db, { title: 'Microsoft Teams: just added' });
    const after = await request(app).get('/dashboard').expect(200);
    const parts = partsOf(after.text)!;
    expect(parts.render).toBeGreaterThan(partsOf(before.text)!.render);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(parts.data[LIST_URL].items.map((item) => item.title)).toContain('Microsoft Teams: just added');
    expect(parts.data[LIST_URL]).toEqual((await request(app).get(LIST_URL).expect(200)).body);
    await request(app).get('/dashboard').set('If-None-Match', before.headers.etag!).expect(200);
  });

  it('renders the landing page without data (on phones too), and a deep link to an item with the default list', async () => {
    const landing = partsOf((await request(app).get('/').expect(200)).text)!;
    expect(landing.data).toEqual({});
    expect(partsOf((await request(app).get('/').set('Sec-CH-UA-Mobile', '?1').expect(200)).text)).toBeDefined();
    // A desktop browser that says so is rendered, whatever its user agent contains.
    expect(
      partsOf((await request(app).get('/dashboard').set('Sec-CH-UA-Mobile', '?0').set('User-Agent', 'Android-ish desktop').expect(200)).text),
    ).toBeDefined();
    expect(landing.markup).toContain('<h1>/</h1>');
    const deepLink = partsOf((await request(app).get('/dashboard?roadmap=400001').expect(200)).text)!;
    expect(Object.keys(deepLink.data)).toEqual([LIST_URL]);
    expect(deepLink.markup).toContain('<h1>/dashboard?roadmap=400001</h1>');
  });

  it('leaves every other page to the browser: tokens, kept list choices, saved searches, other routes', async () => {
    const plain = [
      request(app).get('/dashboard').set('Authorization', 'Bearer radar_pat_whatever'),
      request(app).get('/dashboard?sortField=modifiedDate').set('Cookie', cookie),
      request(app).get('/notifications'),
      request(app).get('/profile').set('Cookie', cookie),
      request(app).get('/dashboard?sortField=modifiedDate'),
      request(app).get('/dashboard?includeRemoved=true'),
      request(app).get('/dashboard?releaseMoved=any'),
      request(app).get('/dashboard?sinceLastVisit=true'),
      request(app).get('/dashboard?savedSearch=4'),
      request(app).get('/admin'),
      request(app).get('/weekly-digest'),
      request(app).get('/dashboard/roadmap/400001'),
      request(app).get('/contact'),
      // Phones (their list is cards, chosen by the window's width): by client hint, and by user agent.
      request(app).get('/dashboard').set('Sec-CH-UA-Mobile', '?1'),
      request(app)
        .get('/dashboard')
        .set(
          'User-Agent',
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
        ),
      request(app)
        .get('/dashboard')
        .set('User-Agent', 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36'),
    ];
    // Not a page of the site (a path no route has): 404, and not rendered either.
    const doubled = await request(app).get('//dashboard');
    expect(doubled.status).toBe(404);
    expect(doubled.text).toContain('<div id="root"></div>');
    for (const pending of plain) {
      const { text, status } = await pending;
      expect(status).toBe(200);
      expect(text).toContain('<div id="root"></div>');
      // A page the browser renders runs its entry as the build wrote it.
      expect(text).toContain('<script defer="defer" src="/main.js"></script>');
      expect(text).not.toContain(SERVER_RENDER.dataElementId);
    }
  });

  it("sends a signed-in user's /dashboard rendered for them: their session and the list the api answers them", async () => {
    const page = await request(app).get('/dashboard').set('Cookie', cookie).expect(200);
    const parts = partsOf(page.text)!;
    expect(parts).toBeDefined();
    expect(Object.keys(parts.data)).toEqual([SESSION_URL, LIST_URL, VISIT_URL]);
    // Exactly what the browser's own requests with the same cookie are answered.
    expect(parts.data[SESSION_URL]).toEqual((await request(app).get(SESSION_URL).set('Cookie', cookie).expect(200)).body);
    expect(parts.data[LIST_URL]).toEqual((await request(app).get(LIST_URL).set('Cookie', cookie).expect(200)).body);
    expect(parts.markup).toContain('<p class="viewer">reader@example.com</p>');
    // Theirs alone: no shared cache may keep it.
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers.vary).toMatch(/Cookie/);
    await request(app).get('/dashboard').set('Cookie', cookie).set('If-None-Match', page.headers.etag!).expect(304);
    const landing = partsOf((await request(app).get('/').set('Cookie', cookie).expect(200)).text)!;
    expect(Object.keys(landing.data)).toEqual([SESSION_URL]);
  });

  it("carries what the dashboard's visit would answer, without recording a visit: the banner is in the first paint", async () => {
    const user = await createUser(t.database.db, { email: 'returning@example.com' });
    const returning = await sessionCookieFor(t.database.db, user.id);
    const visitData = async () => partsOf((await request(app).get('/dashboard').set('Cookie', returning).expect(200)).text)!.data[VISIT_URL] as unknown;
    const post = async () => (await request(app).post(VISIT_URL).set('Cookie', returning).set('Sec-Fetch-Site', 'same-origin').expect(200)).body as unknown;
    try {
      // Never visited: no banner, and the page itself records nothing (its POST does).
      expect(await visitData()).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
      expect(await visitData()).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
      expect(await post()).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
      const firstVisit = t.clock.now().toISOString();
      // An hour later an item changed; the page's preview is what the POST then answers, which moves the baseline.
      t.clock.advance(60 * 60_000);
      await insertRoadmapItem(t.database.db, { title: 'Changed while away', lastChangedAt: t.clock.now(), firstSeenAt: t.clock.now() });
      const preview = await visitData();
      expect(preview).toEqual({ lastVisitAt: firstVisit, changesSinceLastVisit: 1 });
      expect(await post()).toEqual(preview);
      // A reload minutes later keeps that baseline: the preview says the same as the POST again.
      t.clock.advance(60_000);
      expect(await visitData()).toEqual(preview);
      expect(await post()).toEqual(preview);
      // A guest's page has none.
      expect(partsOf((await request(app).get('/dashboard').expect(200)).text)!.data[VISIT_URL]).toBeUndefined();
    } finally {
      t.clock.set('2026-02-07T12:00:00Z');
    }
  });

  it("never sends one user's render to another: staff notes stay with staff, a guest gets the guest's page", async () => {
    const reader = partsOf((await request(app).get('/dashboard').set('Cookie', cookie).expect(200)).text)!;
    const staff = partsOf((await request(app).get('/dashboard').set('Cookie', moderatorCookie).expect(200)).text)!;
    const guestPage = await request(app).get('/dashboard').expect(200);
    const guest = partsOf(guestPage.text)!;
    expect(staff.render).not.toBe(reader.render);
    expect(staff.markup).toContain('moderator@example.com');
    expect(staff.markup).toContain(NOTE);
    expect(staff.data[LIST_URL]).toEqual((await request(app).get(LIST_URL).set('Cookie', moderatorCookie).expect(200)).body);
    for (const other of [reader, guest]) {
      expect(other.markup).not.toContain('moderator@example.com');
      expect(other.markup).not.toContain(NOTE);
      expect(JSON.stringify(other.data)).not.toContain(NOTE);
    }
    expect(guest.data[SESSION_URL]).toBeUndefined();
    expect(guestPage.headers['cache-control']).toBe('no-cache');
    // The same user again reuses their own render.
    expect(partsOf((await request(app).get('/dashboard').set('Cookie', moderatorCookie).expect(200)).text)!.render).toBe(staff.render);
  });

  it("renders a signed-in user's /notifications with every answer its cards read, each as the api answers them", async () => {
    await request(app)
      .post('/api/weekly-digest/subscribe-authenticated')
      .set('Cookie', cookie)
      .set('Origin', 'http://localhost:8080')
      .expect((res) => expect(res.status).toBeLessThan(300));
    const page = await request(app).get('/notifications?x=1').set('Cookie', cookie).expect(200);
    const parts = partsOf(page.text)!;
    const reads = ['/api/weekly-digest/status', '/api/notification-subscriptions', '/api/triage/mail', '/api/saved-searches', '/api/alert-channels'];
    expect(Object.keys(parts.data).sort()).toEqual([SESSION_URL, ...reads].sort());
    for (const url of [SESSION_URL, ...reads])
      expect([url, parts.data[url]]).toEqual([url, (await request(app).get(url).set('Cookie', cookie).expect(200)).body]);
    expect((parts.data['/api/weekly-digest/status'] as unknown as { isSubscribed: boolean }).isSubscribed).toBe(true);
    expect(parts.markup).toContain('<h1>/notifications</h1>');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    // Another user's page has their own answers, not these.
    const staff = partsOf((await request(app).get('/notifications').set('Cookie', moderatorCookie).expect(200)).text)!;
    expect(staff.render).not.toBe(parts.render);
    expect((staff.data['/api/weekly-digest/status'] as unknown as { isSubscribed: boolean }).isSubscribed).toBe(false);
  });

  it("renders an admin's /admin first tab with the access check's roles and the sync history; others get no admin data", async () => {
    const page = await request(app).get('/admin').set('Cookie', adminCookie).expect(200);
    const parts = partsOf(page.text)!;
    const reads = ['/api/admin/roles', '/api/admin/sync-history'];
    expect(Object.keys(parts.data)).toEqual([SESSION_URL, ...reads]);
    for (const url of [SESSION_URL, ...reads])
      expect([url, parts.data[url]]).toEqual([url, (await request(app).get(url).set('Cookie', adminCookie).expect(200)).body]);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    // A moderator is refused the admin reads, in the page as by the routes: the page has their session only.
    await request(app).get('/api/admin/roles').set('Cookie', moderatorCookie).expect(403);
    expect(Object.keys(partsOf((await request(app).get('/admin').set('Cookie', moderatorCookie).expect(200)).text)!.data)).toEqual([SESSION_URL]);
    // The other tabs load their code when opened: not rendered; nor another build of the admin app; nor for guests.
    expect((await request(app).get('/admin?tab=users').set('Cookie', adminCookie).expect(200)).text).toContain('<div id="root"></div>');
    expect(partsOf((await request(app).get('/admin?tab=sync').set('Cookie', adminCookie).expect(200)).text)).toBeDefined();
    expect((await request(app).get('/admin').expect(200)).text).toContain('<div id="root"></div>');
    try {
      writeDashboardManifest('0.1.1+ffff0000', 'admin');
      expect((await request(app).get('/admin').set('Cookie', adminCookie).expect(200)).text).toContain('<div id="root"></div>');
    } finally {
      writeDashboardManifest('0.1.0+abcd1234', 'admin');
    }
  });

  it('renders the guest page for a session that has ended or never existed', async () => {
    const ended = await sessionCookieFor(t.database.db, (await createUser(t.database.db)).id, { expiresAt: new Date('2000-01-01T00:00:00Z') });
    for (const stale of [ended, 'radar_session=not-a-session']) {
      const page = await request(app).get('/dashboard').set('Cookie', stale).expect(200);
      const parts = partsOf(page.text)!;
      expect(Object.keys(parts.data)).toEqual([LIST_URL]);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('a render that fails, or that left part of the page to the browser, sends the plain page and says why', async () => {
    warnings.length = 0;
    for (const url of ['/dashboard?message=explode', '/dashboard?message=boundary']) {
      const { text } = await request(app).get(url).expect(200);
      expect(text).toContain('<div id="root"></div>');
    }
    expect(warnings.map((w) => w.msg)).toEqual([
      'server render failed: the page renders in the browser',
      'server render left part of the page to the browser: the page renders in the browser',
    ]);
  });

  it('renders the dashboard only while the dashboard the api serves is the version the render carries', async () => {
    try {
      writeDashboardManifest('0.1.1+ffff0000');
      expect((await request(app).get('/dashboard').expect(200)).text).toContain('<div id="root"></div>');
      expect(partsOf((await request(app).get('/').expect(200)).text)).toBeDefined();
    } finally {
      writeDashboardManifest('0.1.0+abcd1234');
    }
    expect(partsOf((await request(app).get('/dashboard').expect(200)).text)).toBeDefined();
  });

  it('sends the plain page when the list cannot be read (the database is down), not an error', async () => {
    const down = await createTestContext();
    await insertRoadmapItem(down.database.db, { title: 'Microsoft Teams: before the outage' });
    const downApp = createApp({ ...down.ctx, log: capture() }, { staticRoot: root, runtimeConfig });
    await down.close();
    warnings.length = 0;
    const { text } = await request(downApp).get('/dashboard').expect(200);
    expect(text).toContain('<div id="root"></div>');
    expect(warnings.map((w) => w.msg)).toContain('server render skipped: the list could not be read');
    // Nor for a signed-in user, whose session cannot be looked up either.
    const signedIn = await request(downApp).get('/dashboard').set('Cookie', cookie).expect(200);
    expect(signedIn.text).toContain('<div id="root"></div>');
    expect(warnings.map((w) => w.msg)).toContain('page served without its session: the session lookup failed');
  });

  it('leaves the dashboard to the browser when the registry serves another build of it; SERVER_RENDER=false turns it off', async () => {
    const other = await createTestContext({ REMOTE_DASHBOARD_URL: 'https://cdn.example.com/dashboard/mf-manifest.json' });
    const off = await createTestContext({ SERVER_RENDER: 'false' });
    try {
      const elsewhere = createApp(other.ctx, { staticRoot: root, runtimeConfig });
      expect((await request(elsewhere).get('/dashboard').expect(200)).text).toContain('<div id="root"></div>');
      expect(partsOf((await request(elsewhere).get('/').expect(200)).text)).toBeDefined();
      const disabled = createApp(off.ctx, { staticRoot: root, runtimeConfig });
      for (const url of ['/', '/dashboard']) expect((await request(disabled).get(url).expect(200)).text).toContain('<div id="root"></div>');
    } finally {
      await other.close();
      await off.close();
    }
  });

  it("sends in the page data only the rows the first screen draws, with the whole list's totals", async () => {
    const own = await createTestContext();
    try {
      for (let i = 0; i < FIRST_SCREEN_ROWS + 5; i++) await insertRoadmapItem(own.database.db, { title: `Microsoft Teams: row ${i}` });
      const ownApp = createApp({ ...own.ctx, log: capture() }, { staticRoot: root, runtimeConfig });
      const parts = partsOf((await request(ownApp).get('/dashboard').expect(200)).text);
      const api = (await request(ownApp).get(LIST_URL).expect(200)).body as ItemListResponse;
      expect(api.items).toHaveLength(FIRST_SCREEN_ROWS + 5);
      const data = parts!.data[LIST_URL] as unknown as ItemListResponse;
      // The browser's own request for the list (revalidated on mount) brings the rest of the page.
      expect(data).toEqual({ ...api, items: api.items.slice(0, FIRST_SCREEN_ROWS) });
      for (const item of api.items.slice(0, FIRST_SCREEN_ROWS)) expect(parts!.markup).toContain(`data-item-id="${item.id}"`);
      expect(parts!.markup).not.toContain(`data-item-id="${api.items[FIRST_SCREEN_ROWS].id}"`);
    } finally {
      await own.close();
    }
  });
});

describe('firstScreenList', () => {
  const item = (n: number) => ({ id: `roadmap-${n}`, title: `Item ${n}` });
  const list = (n: number) => ({
    items: Array.from({ length: n }, (_, i) => item(i)),
    total: 120,
    totalPages: 3,
    page: 1,
    receivedBy: { 'roadmap-1': [1], 'roadmap-40': [2] },
    triage: { 'roadmap-40': [{ state: 'new' }] },
    relevance: { 'roadmap-2': { level: 'high' }, 'roadmap-30': { level: 'low' } },
  });

  it('keeps the first rows and what the answer says of them, and the totals', () => {
    const cut = JSON.parse(firstScreenList(JSON.stringify(list(50)))) as Record<string, unknown>;
    expect(cut).toEqual({
      items: list(FIRST_SCREEN_ROWS).items,
      total: 120,
      totalPages: 3,
      page: 1,
      receivedBy: { 'roadmap-1': [1] },
      relevance: { 'roadmap-2': { level: 'high' } },
    });
  });

  it('sends a page of the first screen or shorter as it is', () => {
    const body = JSON.stringify(list(FIRST_SCREEN_ROWS));
    expect(firstScreenList(body)).toBe(body);
  });
});
