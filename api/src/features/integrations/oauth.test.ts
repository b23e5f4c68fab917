import { afterEach, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { startJiraServer, startServiceNowServer } from '../../../test/tracker-servers.js';
import { createTriageRepo } from '../triage/triage.repo.js';
import { createOAuthStatesRepo } from './oauth-states.repo.js';

let t: TestContext | undefined;
const servers: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await t?.close();
  t = undefined;
});

const CLIENT = { clientId: 'radar-app', clientSecret: 'app-secret' };

async function setUp(env: Record<string, string> = {}) {
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true', ...env }, { now: '2026-11-26T12:00:00Z' });
  const db = t.database.db;
  const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'boss@example.com' });
  const { agent: otherAdmin } = await signIn(t.app, db, { roles: ['Admin'], email: 'other@example.com' });
  const { agent: moderator } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
  await insertMessage(db, { externalId: 'MC900001', summary: 'Exchange retires basic auth.' });
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  return { t, admin, otherAdmin, moderator };
}

/** Plays the admin's browser: Authorize, the tracker's consent page, and back to the callback with the session. */
async function authorize(admin: request.Agent, id: number) {
  const started = await admin.post(`/api/admin/integrations/${id}/authorize`);
  expect(started.status).toBe(200);
  const consent = await fetch(started.body.url as string, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location') ?? '');
  expect(back.pathname).toBe('/api/admin/integrations/oauth/callback');
  const done = await admin.get(`${back.pathname}${back.search}`);
  expect(done.status).toBe(303);
  return { started, done, consentUrl: new URL(started.body.url as string) };
}

describe('integrations: OAuth sign-in', () => {
  it('uses PKCE (S256) and a state that works once: a replayed or late callback is refused', async () => {
    const jira = await startJiraServer({ oauth: { ...CLIENT, cloudId: 'cloud-7' } });
    const snow = await startServiceNowServer({ oauth: { ...CLIENT, requirePkce: true } });
    servers.push(jira, snow);
    const { t, admin } = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
    const created = await admin
      .post('/api/admin/integrations')
      .send({ kind: 'jira', name: 'Jira (OAuth)', baseUrl: jira.url, auth: 'oauth', projectKey: 'CHG', issueType: 'Task', ...CLIENT });
    const id = created.body.id as number;

    const started = await admin.post(`/api/admin/integrations/${id}/authorize`);
    const consentUrl = new URL(started.body.url as string);
    const state = consentUrl.searchParams.get('state') ?? '';
    expect(consentUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
    // The verifier stays on the server, sealed, beside the state's hash (never the state itself).
    const { rows } = await t.database.pool.query<{ state_hash: string; verifier_sealed: string }>('SELECT state_hash, verifier_sealed FROM oauth_states');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.state_hash).not.toBe(state);
    expect(rows[0]?.verifier_sealed).toMatch(/^v1\./);

    // The code alone, without the verifier, is refused by the tracker.
    const consent = await fetch(consentUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const stolen = await fetch(`${jira.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
        code: back.searchParams.get('code'),
        redirect_uri: 'http://localhost:8080/api/admin/integrations/oauth/callback',
      }),
    });
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as { error_description: string }).error_description).toMatch(/PKCE/);

    // A fresh consent completes once; the same answer again is refused and changes nothing.
    const { done } = await authorize(admin, id);
    expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
    const usedState = new URL((await admin.post(`/api/admin/integrations/${id}/authorize`)).body.url as string).searchParams.get('state') ?? '';
    const first = await admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(usedState)}`);
    expect(new URL(first.headers.location as string, 'http://x').searchParams.get('oauthError')).toMatch(/^Trading the authorization code/);
    const replayed = await admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(usedState)}`);
    expect(new URL(replayed.headers.location as string, 'http://x').searchParams.get('oauthError')).toBe(
      'This authorization answer was already used: start it again',
    );
    // The stolen code, the completed consent and the first answer reached the token endpoint; the replay did not.
    expect(jira.oauth?.grants.filter((g) => g === 'authorization_code')).toHaveLength(3);

    // A consent left unanswered expires: its callback is refused, and the hourly cleanup removes it.
    t.clock.advance(11 * 60 * 1000);
    const late = await admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
    expect(new URL(late.headers.location as string, 'http://x').searchParams.get('oauthError')).toMatch(/longer than 10 minutes/);
    expect(await createOAuthStatesRepo(t.database.db).sweep(t.clock.now())).toBe(1);
    expect((await t.database.pool.query('SELECT 1 FROM oauth_states')).rowCount).toBe(0);

    // A ServiceNow app registered as requiring PKCE authorizes too.
    const sn = await admin
      .post('/api/admin/integrations')
      .send({ kind: 'servicenow', name: 'ITSM (OAuth)', baseUrl: snow.url, auth: 'oauth', table: 'sc_task', ...CLIENT });
    await authorize(admin, sn.body.id as number);
    expect((await admin.post(`/api/admin/integrations/${sn.body.id}/test`)).body).toMatchObject({ ok: true });
  });

  it('Jira with OAuth 2.0 (3LO): authorize in the browser, find the site, push through the gateway, renew the rotating token', async () => {
    const jira = await startJiraServer({ oauth: { ...CLIENT, cloudId: 'cloud-7' } });
    servers.push(jira);
    const { t, admin, otherAdmin, moderator } = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
    const body = { kind: 'jira', name: 'Jira (OAuth)', baseUrl: jira.url, auth: 'oauth', projectKey: 'CHG', issueType: 'Task' };

    const missing = await admin.post('/api/admin/integrations').send({ ...body, clientId: CLIENT.clientId });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['clientSecret']);
    const created = await admin.post('/api/admin/integrations').send({ ...body, ...CLIENT });
    expect(created.status).toBe(201);
    expect(created.body.authorization).toEqual({
      authorized: false,
      authorizedBy: null,
      authorizedAt: null,
      callbackUrl: 'http://localhost:8080/api/admin/integrations/oauth/callback',
    });
    expect(JSON.stringify(created.body)).not.toContain(CLIENT.clientSecret);
    const id = created.body.id as number;
    const before = await admin.post(`/api/admin/integrations/${id}/test`);
    expect(before.body.checks).toEqual([{ name: 'Secret', ok: false, message: 'Not authorized yet: use Authorize in Admin → Integrations' }]);
    expect((await moderator.post(`/api/admin/integrations/${id}/authorize`)).status).toBe(403);

    // The consent page is Atlassian's, with the app's client id, the scopes with a refresh token, and our callback.
    const { done, consentUrl } = await authorize(admin, id);
    expect(Object.fromEntries(consentUrl.searchParams)).toMatchObject({
      audience: 'api.atlassian.com',
      client_id: 'radar-app',
      scope: 'read:jira-work write:jira-work read:jira-user offline_access',
      response_type: 'code',
      redirect_uri: 'http://localhost:8080/api/admin/integrations/oauth/callback',
    });
    expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
    const listed = (await admin.get('/api/admin/integrations')).body.integrations[0];
    expect(listed.authorization).toMatchObject({ authorized: true, authorizedBy: 'Radar Bot', authorizedAt: '2026-11-26T12:00:00.000Z' });
    const { rows } = await t.database.pool.query<{ oauth_sealed: string }>('SELECT oauth_sealed FROM integrations');
    expect(rows[0]?.oauth_sealed).toMatch(/^v1\./);
    expect(rows[0]?.oauth_sealed).not.toMatch(/at-1|rt-1/);

    const test = await admin.post(`/api/admin/integrations/${id}/test`);
    expect(test.body.ok).toBe(true);
    const pushed = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: id });
    expect(pushed.status).toBe(201);
    expect(pushed.body).toMatchObject({ key: 'CHG-1', url: `${jira.url}/browse/CHG-1` });
    expect(jira.calls.some((c) => c.method === 'POST' && c.path === '/ex/jira/cloud-7/rest/api/3/issue')).toBe(true);

    // Two hours on, the access token has expired: it is renewed once (the refresh token rotates) and the call goes through.
    t.clock.advance(2 * 60 * 60 * 1000);
    jira.close('CHG-1');
    const pulled = await admin.post(`/api/admin/integrations/${id}/pull`);
    expect(pulled.body).toMatchObject({ read: 1, changed: 1 });
    expect(jira.oauth?.grants).toEqual(['authorization_code', 'refresh_token']);
    t.clock.advance(2 * 60 * 60 * 1000);
    expect((await admin.post(`/api/admin/integrations/${id}/pull`)).body).toMatchObject({ read: 1 });
    expect(jira.oauth?.grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);

    // A state of another admin, a forged one and a refused consent all come back to the page with the reason.
    const foreign = await admin.post(`/api/admin/integrations/${id}/authorize`);
    const state = new URL(foreign.body.url as string).searchParams.get('state') ?? '';
    const stolen = await otherAdmin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
    expect(new URL(stolen.headers.location as string, 'http://x').searchParams.get('oauthError')).toBe(
      'The authorization was started by another admin: start it again',
    );
    const forged = await admin.get('/api/admin/integrations/oauth/callback?code=x&state=v1.forged');
    expect(new URL(forged.headers.location as string, 'http://x').searchParams.get('oauthError')).toBe(
      'The authorization answer was not one this installation asked for',
    );
    const refused = await admin.get('/api/admin/integrations/oauth/callback?error=access_denied&error_description=The%20user%20denied%20access');
    expect(new URL(refused.headers.location as string, 'http://x').searchParams.get('oauthError')).toBe('Not authorized: The user denied access');
    t.clock.advance(11 * 60 * 1000);
    const late = await admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
    expect(new URL(late.headers.location as string, 'http://x').searchParams.get('oauthError')).toMatch(/longer than 10 minutes/);
    expect((await admin.get('/api/admin/integrations/oauth/callback?code=x')).status).toBe(303);

    // Another app: the authorization is dropped with it, and signing in another way needs its own secret.
    await admin.put(`/api/admin/integrations/${id}`).send({ settings: { clientId: 'other-app' } });
    expect((await admin.get('/api/admin/integrations')).body.integrations[0].authorization.authorized).toBe(false);
    const noToken = await admin.put(`/api/admin/integrations/${id}`).send({ settings: { auth: 'token', email: 'bot@contoso.com' } });
    expect(noToken.status).toBe(400);
    expect(noToken.body.error.issues[0].path).toBe('apiToken');
    expect(
      (await admin.put(`/api/admin/integrations/${id}`).send({ settings: { auth: 'token', email: 'bot@contoso.com' }, apiToken: 'jira-token' })).status,
    ).toBe(200);
  });

  it('a revoked authorization asks for a new one; a site the account cannot reach is said; ServiceNow signs in with OAuth too', async () => {
    const jira = await startJiraServer({ oauth: CLIENT });
    const snow = await startServiceNowServer({ oauth: CLIENT });
    servers.push(jira, snow);
    const { t, admin, moderator } = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
    const jiraBody = { kind: 'jira', name: 'Jira (OAuth)', auth: 'oauth', projectKey: 'CHG', issueType: 'Task', ...CLIENT };

    // The site is named by another host than the one Atlassian lists for the account.
    const elsewhere = await admin.post('/api/admin/integrations').send({ ...jiraBody, baseUrl: jira.url.replace('127.0.0.1', 'localhost') });
    const { done: notReached } = await authorize(admin, elsewhere.body.id as number);
    expect(new URL(notReached.headers.location as string, 'http://x').searchParams.get('oauthError')).toMatch(
      new RegExp(`cannot reach http://localhost:\\d+ \\(it reaches ${jira.url.replace(/[.:/]/g, '\\$&')}\\)`),
    );
    await admin.delete(`/api/admin/integrations/${elsewhere.body.id}`);

    const created = await admin.post('/api/admin/integrations').send({ ...jiraBody, baseUrl: jira.url });
    const id = created.body.id as number;
    await authorize(admin, id);
    jira.oauth?.revokeAll();
    t.clock.advance(2 * 60 * 60 * 1000);
    const pulled = await admin.post(`/api/admin/integrations/${id}/test`);
    expect(pulled.body.checks[0].message).toBe(
      'The authorization was refused when renewed: Unknown or invalid refresh token. Authorize again in Admin → Integrations',
    );
    await authorize(admin, id);
    expect((await admin.post(`/api/admin/integrations/${id}/test`)).body.ok).toBe(true);

    // ServiceNow: the instance's own consent page and token endpoint (a form), then Bearer calls to the Table API.
    const sn = await admin
      .post('/api/admin/integrations')
      .send({ kind: 'servicenow', name: 'ITSM (OAuth)', baseUrl: snow.url, auth: 'oauth', table: 'sc_task', ...CLIENT });
    expect(sn.status).toBe(201);
    const { consentUrl } = await authorize(admin, sn.body.id as number);
    expect(consentUrl.origin + consentUrl.pathname).toBe(`${snow.url}/oauth_auth.do`);
    expect((await admin.post(`/api/admin/integrations/${sn.body.id}/test`)).body).toMatchObject({ ok: true });
    const pushed = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: sn.body.id });
    expect(pushed.status).toBe(201);
    expect(snow.records.size).toBe(1);
    expect(snow.oauth?.grants).toEqual(['authorization_code']);
  });
});
