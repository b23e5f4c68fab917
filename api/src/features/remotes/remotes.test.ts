import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { signIn } from '../../../test/factories.js';
import { createApp } from '../../app.js';
import { buildRuntimeConfig } from '../../runtime-config.js';
import { LOADED_REPORTS_PER_ADDRESS } from './remotes.endpoints.js';
import { originsOf } from './registry.js';

/**
 * The remote registry: admin-only reads and changes, URL validation (400 naming `url`), 404 for an unknown remote,
 * rollback to the previous URL, Test against a real manifest server, the shell's "loaded" report, and the shell page
 * reading the registry (and naming exactly its origins in the CSP) on the next load.
 */
const SHELL_BUILD = {
  app: 'shell',
  version: '0.1.0+abc1234',
  commit: 'abc1234',
  shared: { react: '19.3.1', 'react-router': '7.18.5', '@mui/material': '9.5.0', '@radar/shared-ui': '0.1.0', '@radar/contracts': '0.1.0' },
};
const ranges = (sharedUi: string) => ({
  react: '^19.3.1',
  'react-router': '^7.18.5',
  '@mui/material': '^9.5.0',
  '@radar/shared-ui': sharedUi,
  '@radar/contracts': '^0.1.0',
});
const manifest = (version: string, sharedUi = '^0.1.0') => ({
  id: 'radar_admin',
  name: 'radar_admin',
  metaData: { radar: { app: 'admin', version, commit: 'def5678', shared: ranges(sharedUi) } },
  shared: [],
  remotes: [],
  exposes: [],
});

let t: TestContext;
let root: string;
let cdn: http.Server;
let cdnUrl: string;
let admin: Awaited<ReturnType<typeof signIn>>;
let user: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-remotes-'));
  for (const dir of ['shell', 'mfe-dashboard', 'mfe-admin', 'mfe-digest']) fs.mkdirSync(path.join(root, dir, 'dist'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'shell', 'dist', 'index.html'),
    '<!doctype html><html><head><title>M365 Radar</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(root, 'shell', 'dist', 'radar-build.json'), JSON.stringify(SHELL_BUILD));
  fs.writeFileSync(path.join(root, 'mfe-admin', 'dist', 'mf-manifest.json'), JSON.stringify(manifest('0.1.0+abc1234')));
  // A static host on another origin: /v2 a compatible build, /v3 one built for shared-ui 1.x, /slow never answers,
  // /huge is larger than a manifest can be.
  cdn = http.createServer((req, res) => {
    if (req.url === '/slow/mf-manifest.json') return;
    if (req.url === '/huge/mf-manifest.json') {
      const huge = `{"metaData":{},"pad":"${'x'.repeat(3 * 1024 * 1024)}"}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(huge)) });
      res.end(huge);
      return;
    }
    const body =
      req.url === '/v2/mf-manifest.json' ? manifest('0.2.0+fff0000') : req.url === '/v3/mf-manifest.json' ? manifest('0.3.0+eee0000', '^1.0.0') : null;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ? JSON.stringify(body) : '{}');
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  // The local CDN is on a loopback address: reachable only with the switch the webhook tests use too.
  t = await createTestContext({ STATIC_ROOT: root, REMOTE_MANIFEST_TIMEOUT_MS: '500', ALLOW_PRIVATE_WEBHOOKS: 'true' });
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
  user = await signIn(t.app, t.ctx.db, { roles: ['Moderator', 'User'] });
});
afterAll(async () => {
  cdn.closeAllConnections();
  await new Promise((resolve) => cdn.close(resolve));
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('permissions', () => {
  it.each([
    ['get', '/api/admin/remotes'],
    ['put', '/api/admin/remotes/admin'],
    ['post', '/api/admin/remotes/admin/rollback'],
    ['post', '/api/admin/remotes/admin/test'],
  ] as const)('%s %s: 401 signed out, 403 for a moderator', async (method, url) => {
    const body = { url: `${cdnUrl}/v2/mf-manifest.json` };
    expect((await request(t.app)[method](url).send(body)).status).toBe(401);
    const refused = await user.agent[method](url).send(body);
    expect(refused.status).toBe(403);
    expect(refused.body.error.name).toBe('NotAllowedError');
  });
});

describe('CSP sources from remote URLs', () => {
  it('come only from URLs the rule accepts, so a stored crafted URL adds no directive or wildcard', () => {
    expect(
      originsOf([
        'https://*.evil.example/mf-manifest.json',
        "https://evil.example;script-src'unsafe-inline'/mf-manifest.json",
        '/\\evil.example/mf-manifest.json',
        'https://cdn.example.com/admin/mf-manifest.json',
        '/remotes/admin/mf-manifest.json',
      ]),
    ).toEqual(['https://cdn.example.com']);
  });
});

describe('the registry', () => {
  it('starts from the configuration, with the version each manifest states', async () => {
    await t.ctx.services.remotes.syncFromConfig();
    const res = await admin.agent.get('/api/admin/remotes');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { name: 'dashboard', url: '/remotes/dashboard/mf-manifest.json', version: null, previousUrl: null, lastLoadedAt: null },
      { name: 'admin', url: '/remotes/admin/mf-manifest.json', version: '0.1.0+abc1234', previousUrl: null, lastLoadedAt: null },
      { name: 'digest', url: '/remotes/digest/mf-manifest.json', version: null, previousUrl: null, lastLoadedAt: null },
    ]);
  });

  it.each([
    ['http://cdn.example.com/admin/mf-manifest.json', 'url must be https (http is allowed only for localhost and loopback addresses)'],
    ['ftp://cdn.example.com/admin/mf-manifest.json', 'url must be https (http is allowed only for localhost and loopback addresses)'],
    ['https://cdn.example.com/admin/remoteEntry.js', "url must point to the remote's mf-manifest.json"],
    ['https://user:pw@cdn.example.com/admin/mf-manifest.json', 'url must not contain a user name or password'],
    ['not a url', 'url must be an absolute https URL (or a path on this site)'],
    ['', 'url is required'],
  ])('refuses %j with a 400 naming url', async (url, message) => {
    const res = await admin.agent.put('/api/admin/remotes/admin').send({ url });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([{ path: 'url', message }]);
  });

  it('answers 404 for a remote it does not know', async () => {
    for (const res of [
      await admin.agent.put('/api/admin/remotes/billing').send({ url: 'https://cdn.example.com/mf-manifest.json' }),
      await admin.agent.post('/api/admin/remotes/billing/rollback'),
      await admin.agent.post('/api/admin/remotes/billing/test'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.name).toBe('NotFoundError');
    }
  });

  it('changes a URL keeping the previous one, rolls back, and a restart with the same configuration keeps the change', async () => {
    const v2 = `${cdnUrl}/v2/mf-manifest.json`;
    const put = await admin.agent.put('/api/admin/remotes/admin').send({ url: ` ${v2} ` });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ name: 'admin', url: v2, version: '0.2.0+fff0000', previousUrl: '/remotes/admin/mf-manifest.json', lastLoadedAt: null });
    await t.ctx.services.remotes.syncFromConfig();
    expect((await admin.agent.get('/api/admin/remotes')).body[1]).toMatchObject({ url: v2, previousUrl: '/remotes/admin/mf-manifest.json' });

    const back = await admin.agent.post('/api/admin/remotes/admin/rollback');
    expect(back.body).toEqual({ name: 'admin', url: '/remotes/admin/mf-manifest.json', version: '0.1.0+abc1234', previousUrl: v2, lastLoadedAt: null });
    // Rolling back again is a roll forward: the two URLs swap.
    expect((await admin.agent.post('/api/admin/remotes/admin/rollback')).body.url).toBe(v2);
    expect((await admin.agent.post('/api/admin/remotes/digest/rollback')).status).toBe(409);
  });
});

describe('Test', () => {
  const test = async (url: string) => {
    await admin.agent.put('/api/admin/remotes/admin').send({ url });
    const res = await admin.agent.post('/api/admin/remotes/admin/test');
    expect(res.status).toBe(200);
    return res.body;
  };

  it('reports version and compatibility of a reachable build', async () => {
    expect(await test(`${cdnUrl}/v2/mf-manifest.json`)).toMatchObject({
      ok: true,
      reachable: true,
      version: '0.2.0+fff0000',
      compatible: true,
      mismatches: [],
    });
  });

  it('names the shared library a build needs in another version', async () => {
    const body = await test(`${cdnUrl}/v3/mf-manifest.json`);
    expect(body).toMatchObject({
      ok: false,
      reachable: true,
      compatible: false,
      mismatches: [{ library: '@radar/shared-ui', required: '^1.0.0', provided: '0.1.0' }],
    });
    expect(body.message).toBe('Incompatible: Admin 0.3.0+eee0000 was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).');
  });

  it('reports a missing manifest; a slow host and a closed port alike (no port scanning through Test)', async () => {
    expect(await test(`${cdnUrl}/gone/mf-manifest.json`)).toMatchObject({ ok: false, reachable: false, message: expect.stringContaining('answered HTTP 404') });
    const slow = await test(`${cdnUrl}/slow/mf-manifest.json`);
    expect(slow).toMatchObject({ ok: false, reachable: false, message: expect.stringContaining(`${cdnUrl} did not answer`) });
    const closed = await test('http://127.0.0.1:1/mf-manifest.json');
    expect(closed.message.replace('http://127.0.0.1:1', 'X')).toBe(slow.message.replace(cdnUrl, 'X'));
  });

  it('reads a manifest through the SSRF guard: a private host is refused without ALLOW_PRIVATE_WEBHOOKS', async () => {
    const strict = await createTestContext({ STATIC_ROOT: root, REMOTE_MANIFEST_TIMEOUT_MS: '500' });
    try {
      const strictAdmin = await signIn(strict.app, strict.ctx.db, { roles: ['Admin'] });
      await strictAdmin.agent.put('/api/admin/remotes/admin').send({ url: `${cdnUrl.replace('http:', 'https:')}/v2/mf-manifest.json` });
      const res = await strictAdmin.agent.post('/api/admin/remotes/admin/test');
      expect(res.body).toMatchObject({
        ok: false,
        reachable: false,
        message: expect.stringContaining('Remote URL host 127.0.0.1 cannot be used: it must be a public internet host'),
      });
    } finally {
      await strict.close();
    }
  });

  it('reads the URL the operator configured as trusted configuration; an admin-entered URL still passes the guard', async () => {
    // REMOTE_ADMIN_URL on a loopback http host, without ALLOW_PRIVATE_WEBHOOKS: the environment is the operator's word.
    const configured = `${cdnUrl}/v2/mf-manifest.json`;
    const strict = await createTestContext({ STATIC_ROOT: root, REMOTE_MANIFEST_TIMEOUT_MS: '500', REMOTE_ADMIN_URL: configured });
    try {
      const strictAdmin = await signIn(strict.app, strict.ctx.db, { roles: ['Admin'] });
      const listed = (await strictAdmin.agent.get('/api/admin/remotes')).body as { name: string; url: string; version: string | null }[];
      expect(listed.find((r) => r.name === 'admin')).toMatchObject({ url: configured, version: '0.2.0+fff0000' });
      expect((await strictAdmin.agent.post('/api/admin/remotes/admin/test')).body).toMatchObject({ reachable: true, version: '0.2.0+fff0000' });

      // The same network typed in by an admin is refused.
      await strictAdmin.agent.put('/api/admin/remotes/admin').send({ url: `${cdnUrl}/v3/mf-manifest.json` });
      expect((await strictAdmin.agent.post('/api/admin/remotes/admin/test')).body).toMatchObject({
        reachable: false,
        message: expect.stringContaining('Remote URL must start with https://'),
      });
      // Rolled back to the configured URL, it is trusted again.
      await strictAdmin.agent.post('/api/admin/remotes/admin/rollback');
      expect((await strictAdmin.agent.post('/api/admin/remotes/admin/test')).body).toMatchObject({ reachable: true, version: '0.2.0+fff0000' });
    } finally {
      await strict.close();
    }
  });

  it('refuses a manifest larger than any real one while it arrives', async () => {
    expect(await test(`${cdnUrl}/huge/mf-manifest.json`)).toMatchObject({
      ok: false,
      reachable: false,
      message: expect.stringContaining('answered more than'),
    });
  });
});

describe('the shell', () => {
  it('reports a loaded remote: recorded for the current URL, at most once a minute', async () => {
    const v2 = `${cdnUrl}/v2/mf-manifest.json`;
    await admin.agent.put('/api/admin/remotes/admin').send({ url: v2 });
    expect((await request(t.app).post('/api/remotes/admin/loaded').send({ url: '/remotes/admin/mf-manifest.json' })).body).toEqual({ recorded: false });
    expect((await request(t.app).post('/api/remotes/admin/loaded').send({ url: v2 })).body).toEqual({ recorded: true });
    expect((await request(t.app).post('/api/remotes/admin/loaded').send({ url: v2 })).body).toEqual({ recorded: false });
    expect((await admin.agent.get('/api/admin/remotes')).body[1].lastLoadedAt).toBe(t.clock.now().toISOString());
    t.clock.advance(61_000);
    expect((await request(t.app).post('/api/remotes/admin/loaded').send({ url: v2 })).body).toEqual({ recorded: true });
    expect((await request(t.app).post('/api/remotes/billing/loaded').send({ url: v2 })).status).toBe(404);
  });

  it('takes at most LOADED_REPORTS_PER_ADDRESS reports from one address in 15 minutes; other addresses are not affected', async () => {
    // Behind a proxy that says who the client is (TRUST_PROXY), so the test can speak from two addresses.
    const app = createApp({ ...t.ctx, config: { ...t.ctx.config, TRUST_PROXY: '1' } });
    const send = (address: string) =>
      request(app).post('/api/remotes/digest/loaded').set('X-Forwarded-For', address).send({ url: '/remotes/digest/mf-manifest.json' });
    const statuses = new Map<number, number>();
    for (let i = 0; i < LOADED_REPORTS_PER_ADDRESS; i++) {
      const status = (await send('203.0.113.7')).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, LOADED_REPORTS_PER_ADDRESS]]));
    const refused = await send('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many reports from this address. Please try again later.');
    expect((await send('198.51.100.9')).status).toBe(200);
  });

  it('gets the registry URL on the next page load, and the CSP names exactly the remote origins', async () => {
    const served = createApp(t.ctx, { staticRoot: root, runtimeConfig: buildRuntimeConfig(t.ctx.config) });
    await admin.agent.put('/api/admin/remotes/admin').send({ url: '/remotes/admin/mf-manifest.json' });
    const before = await request(served).get('/admin');
    expect(before.text).toContain('"admin":"/remotes/admin/mf-manifest.json"');
    expect(cspOf(before).get('connect-src')).toEqual(["'self'"]);

    await admin.agent.put('/api/admin/remotes/admin').send({ url: `${cdnUrl}/v2/mf-manifest.json` });
    const after = await request(served).get('/admin');
    expect(after.text).toContain(`"admin":"${cdnUrl}/v2/mf-manifest.json"`);
    expect(cspOf(after).get('connect-src')).toEqual(["'self'", cdnUrl]);
    expect(cspOf(after).get('script-src')).toContain(cdnUrl);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await request(served).get('/config.json')).body.remotes.admin).toBe(`${cdnUrl}/v2/mf-manifest.json`);
    // Other answers run no remote code: their policy stays 'self'.
    expect(cspOf(await request(served).get('/healthz')).get('script-src')).not.toContain(cdnUrl);
  });
});

function cspOf(res: request.Response): Map<string, string[]> {
  const csp = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}
