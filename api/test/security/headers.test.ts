import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { buildRuntimeConfig } from '../../src/runtime-config.js';
import type { TestContext } from '../context.js';
import { signInWithRoles } from '../auth-helpers.js';
import { DARK_FIRST_PAINT_SCRIPT } from '@radar/contracts';
import { roleUsers, securityContext, type RoleUsers } from './harness.js';

/**
 * ASVS V14.4 (HTTP security headers) and V13.1.3/V12.1.1 (request size before authentication): the served shell page
 * allows no inline script but its runtime-config script, by that script's SHA-256 (the page stays the same bytes on
 * every response, so it can be revalidated with its ETag; other pages use a per-response nonce), nothing may frame the
 * product, nothing is sniffed, no X-Powered-By, api answers are never stored by caches, and a body is read only for a
 * caller allowed to send it (and then only up to the endpoint's limit).
 */
let t: TestContext;
let users: RoleUsers;
let staticRoot: string;
let served: ReturnType<typeof createApp>;
const SHELL_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"/><title>M365 Radar</title><script defer="defer" src="/main.js"></script></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  t = await securityContext();
  users = await roleUsers(t);
  staticRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-static-'));
  for (const dir of ['shell', 'mfe-dashboard', 'mfe-admin', 'mfe-digest']) fs.mkdirSync(path.join(staticRoot, dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(staticRoot, 'shell', 'dist', 'index.html'), SHELL_HTML);
  fs.writeFileSync(path.join(staticRoot, 'shell', 'dist', 'main.js'), 'console.log(1)');
  served = createApp(t.ctx, { staticRoot, runtimeConfig: buildRuntimeConfig(t.ctx.config) });
});
afterAll(async () => {
  fs.rmSync(staticRoot, { recursive: true, force: true });
  await t.close();
});

function directives(csp: string | undefined): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the shell page', () => {
  it("has a CSP without 'unsafe-inline' for scripts; the theme and config scripts are allowed by their hashes alone", async () => {
    const first = await request(served).get('/dashboard');
    const second = await request(served).get('/dashboard');
    expect(first.status).toBe(200);
    const csp = directives(first.headers['content-security-policy']);
    const scripts = csp.get('script-src')!;
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).toContain("'self'");
    // The two inline scripts are the theme (before the first paint) and the runtime config; the policy names exactly
    // their SHA-256s and no other.
    expect(first.text.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual(['<script>', '<script>']);
    const inline = [...first.text.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toEqual([DARK_FIRST_PAINT_SCRIPT, expect.stringMatching(/^window\.__RADAR_CONFIG__=\{/)]);
    for (const script of inline) expect(scripts).toContain(`'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`);
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(2);
    // Same bytes and the same policy on every response (revalidated with its ETag). No nonce: the page writes no
    // script that needs one (the sign-out page does: a fresh nonce per response, features/auth/auth.test.ts).
    expect(second.text).toBe(first.text);
    expect(scripts.filter((s) => s.startsWith("'nonce-"))).toEqual([]);
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('cannot be framed, is not sniffed, and does not say what runs it', async () => {
    for (const url of ['/', '/main.js', '/api/auth/session-user', '/api/nothing-here', '/healthz']) {
      const res = await request(served).get(url);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(directives(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  it('lets the shell page load a remote served elsewhere (REMOTE_*_URL, the registry) and nothing else; HSTS only over https', async () => {
    const cdn = await securityContext({ REMOTE_ADMIN_URL: 'https://cdn.example.com/admin/mf-manifest.json', PUBLIC_URL: 'https://radar.example.com' });
    try {
      const page = createApp(cdn.ctx, { staticRoot, runtimeConfig: buildRuntimeConfig(cdn.ctx.config) });
      const csp = directives((await request(page).get('/admin')).headers['content-security-policy']);
      expect(csp.get('script-src')).toContain('https://cdn.example.com');
      expect(csp.get('connect-src')).toEqual(["'self'", 'https://cdn.example.com']);
      // Answers that run no remote code keep 'self' alone.
      const res = await request(cdn.app).get('/healthz');
      expect(directives(res.headers['content-security-policy']).get('connect-src')).toEqual(["'self'"]);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await cdn.close();
    }
    expect(directives((await request(served).get('/admin')).headers['content-security-policy']).get('connect-src')).toEqual(["'self'"]);
    expect((await request(served).get('/healthz')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('api answers are never cached', () => {
  it.each([
    ['GET', '/api/auth/session-user', 200],
    ['GET', '/api/auth/user', 401],
    ['GET', '/api/admin/roles', 401],
    ['GET', '/api/no-such-route', 404],
    ['POST', '/api/contact', 400],
    ['GET', '/api/logout', 200],
  ])('%s %s (%i) is Cache-Control: no-store', async (method, url, status) => {
    const res = method === 'GET' ? await request(t.app).get(url) : await request(t.app).post(url).send({});
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

/** Sends only the headers of a large upload and waits for the answer: it must come without the body being read. */
function answerWithoutBody(
  port: number,
  method: string,
  urlPath: string,
  cookie: string | null,
  length: number,
  waitMs = 5000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: urlPath,
      method,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), 'Sec-Fetch-Site': 'same-origin', ...(cookie ? { Cookie: cookie } : {}) },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.flushHeaders();
    setTimeout(() => reject(new Error('no answer without the body: the server waited to read it')), waitMs).unref();
  });
}

describe('request bodies are read only for callers allowed to send them', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a guest or a non-admin is refused before a byte of the body is read (the parser would wait for it)', async () => {
    // Under the 10 MB limit: a parser running first would wait for the 5 MB that never come.
    expect((await answerWithoutBody(port, 'POST', '/api/admin/generate-summary', null, 5 * 1024 * 1024)).status).toBe(401);
    expect((await answerWithoutBody(port, 'POST', '/api/admin/generate-summary', await users.cookie('User'), 5 * 1024 * 1024)).status).toBe(403);
    expect((await answerWithoutBody(port, 'PUT', '/api/moderator/roadmap/1', await users.cookie('User'), 512 * 1024)).status).toBe(403);
    // Over the limit: the refusal is the access decision (401/403), not 413.
    const big = JSON.stringify({ reportData: 'x'.repeat(11 * 1024 * 1024) });
    expect((await request(t.app).post('/api/admin/generate-summary').set('Content-Type', 'application/json').send(big)).status).toBe(401);
    const user = (await users.cookie('User'))!;
    expect(
      (
        await request(t.app)
          .post('/api/admin/generate-summary')
          .set('Cookie', user)
          .set('Sec-Fetch-Site', 'same-origin')
          .set('Content-Type', 'application/json')
          .send(big)
      ).status,
    ).toBe(403);
  });

  it('for an allowed caller the same headers-only upload is read (the check above would notice a parser that runs first)', async () => {
    await expect(answerWithoutBody(port, 'POST', '/api/admin/generate-summary', await users.cookie('Admin'), 5 * 1024 * 1024, 1500)).rejects.toThrow(
      /waited to read it/,
    );
  });

  it("an admin's upload is read up to the endpoint's limit; other endpoints keep BODY_LIMIT or their own", async () => {
    const admin = await signInWithRoles(t, 'uploader@example.com', ['Admin']);
    const big = JSON.stringify({ reportData: 'x'.repeat(11 * 1024 * 1024) });
    expect(
      (
        await request(t.app)
          .post('/api/admin/generate-summary')
          .set('Cookie', admin)
          .set('Sec-Fetch-Site', 'same-origin')
          .set('Content-Type', 'application/json')
          .send(big)
      ).status,
    ).toBe(413);
    const contact = JSON.stringify({ firstName: 'Ann', lastName: 'Lee', email: 'a@example.com', message: 'x'.repeat(2 * 1024 * 1024) });
    expect((await request(t.app).post('/api/contact').set('Content-Type', 'application/json').send(contact)).status).toBe(413);
    const activity = JSON.stringify({ actionType: 'featured', itemType: 'roadmap', itemId: '1', itemTitle: 'x'.repeat(20_000) });
    const moderator = await users.cookie('Moderator');
    expect(
      (
        await request(t.app)
          .post('/api/moderator-activity')
          .set('Cookie', moderator!)
          .set('Sec-Fetch-Site', 'same-origin')
          .set('Content-Type', 'application/json')
          .send(activity)
      ).status,
    ).toBe(413);
  });
});
