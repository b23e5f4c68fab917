import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import type { TestContext } from '../../../test/context.js';
import { insertMessage, seedSession } from '../../../test/factories.js';
import { cookieAgent, seededContext } from '../../../test/seeded-context.js';
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

/** Two admins and a moderator signed in, a post with its triage record. */
const seeded = seededContext(async ({ database: { db } }) => {
  const { cookie: admin } = await seedSession(db, { roles: ['Admin'], email: 'boss@example.com' });
  const { cookie: otherAdmin } = await seedSession(db, { roles: ['Admin'], email: 'other@example.com' });
  const { cookie: moderator } = await seedSession(db, { roles: ['Moderator'], email: 'mod@example.com' });
  await insertMessage(db, { externalId: 'MC900001', summary: 'Exchange retires basic auth.' });
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  return { admin, otherAdmin, moderator };
});

async function setUp(env: Record<string, string> = {}) {
  const c = await seeded.context({ ALLOW_PRIVATE_WEBHOOKS: 'true', ...env }, { now: '2026-11-26T12:00:00Z' });
  t = c;
  const { admin, otherAdmin, moderator } = c.seeded;
  return { t: c as TestContext, admin: cookieAgent(c.app, admin), otherAdmin: cookieAgent(c.app, otherAdmin), moderator: cookieAgent(c.app, moderator) };
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

type SetUp = Awaited<ReturnType<typeof setUp>>;

/** The reason a callback sent the browser back to the admin page with. */
const oauthErrorOf = (res: { headers: Record<string, unknown> }) => new URL(res.headers.location as string, 'http://x').searchParams.get('oauthError');

describe('trackers: OAuth sign-in', () => {
  describe('PKCE (S256) and a state that works once', () => {
    let jira: Awaited<ReturnType<typeof startJiraServer>>;
    let snow: Awaited<ReturnType<typeof startServiceNowServer>>;
    let s: SetUp;
    let id: number;
    beforeEach(async () => {
      jira = await startJiraServer({ oauth: { ...CLIENT, cloudId: 'cloud-7' } });
      snow = await startServiceNowServer({ oauth: { ...CLIENT, requirePkce: true } });
      servers.push(jira, snow);
      s = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
      const created = await s.admin
        .post('/api/admin/integrations')
        .send({ kind: 'jira', name: 'Jira (OAuth)', baseUrl: jira.url, auth: 'oauth', projectKey: 'CHG', issueType: 'Task', ...CLIENT });
      id = created.body.id as number;
    });
    const startAuthorize = async () => new URL((await s.admin.post(`/api/admin/integrations/${id}/authorize`)).body.url as string);
    /** A consent answered by the tracker, whose code is traded directly at its token endpoint, without the verifier. */
    const codeTradedWithoutVerifier = async () => {
      const consentUrl = await startAuthorize();
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
      return { stolen, state: consentUrl.searchParams.get('state') ?? '' };
    };
    const callback = (state: string) => s.admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
    /** A fresh consent started and answered once with a code the tracker does not know. */
    const answeredOnce = async () => {
      const usedState = (await startAuthorize()).searchParams.get('state') ?? '';
      return { usedState, first: await callback(usedState) };
    };

    it('sends an S256 code challenge with the consent', async () => {
      const consentUrl = await startAuthorize();
      expect(consentUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
    });

    it('keeps the verifier on the server, sealed, beside the state’s hash (never the state itself)', async () => {
      const state = (await startAuthorize()).searchParams.get('state') ?? '';
      const { rows } = await s.t.database.pool.query<{ state_hash: string; verifier_sealed: string }>('SELECT state_hash, verifier_sealed FROM oauth_states');
      expect(rows).toHaveLength(1);
      expect(rows[0]?.state_hash).not.toBe(state);
      expect(rows[0]?.verifier_sealed).toMatch(/^v1\./);
    });

    it('is refused by the tracker when the code comes without the verifier', async () => {
      const { stolen } = await codeTradedWithoutVerifier();
      expect(stolen.status).toBe(400);
      expect(((await stolen.json()) as { error_description: string }).error_description).toMatch(/PKCE/);
    });

    it('completes a fresh consent', async () => {
      await codeTradedWithoutVerifier();
      const { done } = await authorize(s.admin, id);
      expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
    });

    it('refuses the same answer again, and the replay never reaches the tracker', async () => {
      await codeTradedWithoutVerifier();
      await authorize(s.admin, id);
      const { usedState, first } = await answeredOnce();
      expect(oauthErrorOf(first)).toMatch(/^Trading the authorization code/);
      const replayed = await callback(usedState);
      expect(oauthErrorOf(replayed)).toBe('This authorization answer was already used: start it again');
      // The stolen code, the completed consent and the first answer reached the token endpoint; the replay did not.
      expect(jira.oauth?.grants.filter((g) => g === 'authorization_code')).toHaveLength(3);
    });

    it('refuses the callback of a consent left unanswered for over 10 minutes, and the hourly cleanup removes it', async () => {
      const { state } = await codeTradedWithoutVerifier();
      await authorize(s.admin, id);
      await answeredOnce();
      s.t.clock.advance(11 * 60 * 1000);
      const late = await callback(state);
      expect(oauthErrorOf(late)).toMatch(/longer than 10 minutes/);
      expect(await createOAuthStatesRepo(s.t.database.db).sweep(s.t.clock.now())).toBe(1);
      expect((await s.t.database.pool.query('SELECT 1 FROM oauth_states')).rowCount).toBe(0);
    });

    it('authorizes a ServiceNow app registered as requiring PKCE', async () => {
      const sn = await s.admin
        .post('/api/admin/integrations')
        .send({ kind: 'servicenow', name: 'ITSM (OAuth)', baseUrl: snow.url, auth: 'oauth', table: 'sc_task', ...CLIENT });
      await authorize(s.admin, sn.body.id as number);
      expect((await s.admin.post(`/api/admin/integrations/${sn.body.id}/test`)).body).toMatchObject({ ok: true });
    });
  });

  describe('Jira with OAuth 2.0 (3LO)', () => {
    let jira: Awaited<ReturnType<typeof startJiraServer>>;
    let s: SetUp;
    const body = () => ({ kind: 'jira', name: 'Jira (OAuth)', baseUrl: jira.url, auth: 'oauth', projectKey: 'CHG', issueType: 'Task' });
    beforeEach(async () => {
      jira = await startJiraServer({ oauth: { ...CLIENT, cloudId: 'cloud-7' } });
      servers.push(jira);
      s = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
    });
    const create = () => s.admin.post('/api/admin/integrations').send({ ...body(), ...CLIENT });
    /** Connected and authorized in the browser; answers the tracker's id. */
    const authorized = async () => {
      const id = (await create()).body.id as number;
      await authorize(s.admin, id);
      return id;
    };
    /** Authorized, and a post pushed as an issue through the gateway (CHG-1). */
    const pushed = async () => {
      const id = await authorized();
      await s.moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: id });
      return id;
    };
    /** A consent an admin started: its state. */
    const startedState = async (id: number) =>
      new URL((await s.admin.post(`/api/admin/integrations/${id}/authorize`)).body.url as string).searchParams.get('state') ?? '';

    it('needs the client secret with the client id', async () => {
      const missing = await s.admin.post('/api/admin/integrations').send({ ...body(), clientId: CLIENT.clientId });
      expect(missing.status).toBe(400);
      expect(missing.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['clientSecret']);
    });

    it('is connected unauthorized, with the callback URL to register and never the secret', async () => {
      const created = await create();
      expect(created.status).toBe(201);
      expect(created.body.authorization).toEqual({
        authorized: false,
        authorizedBy: null,
        authorizedAt: null,
        callbackUrl: 'http://localhost:8080/api/admin/integrations/oauth/callback',
      });
      expect(JSON.stringify(created.body)).not.toContain(CLIENT.clientSecret);
    });

    it('fails Test until authorized, saying so', async () => {
      const id = (await create()).body.id as number;
      const before = await s.admin.post(`/api/admin/integrations/${id}/test`);
      expect(before.body.checks).toEqual([{ name: 'Secret', ok: false, message: 'Not authorized yet: use Authorize in Admin → Trackers' }]);
    });

    it('is authorized by admins only', async () => {
      const id = (await create()).body.id as number;
      expect((await s.moderator.post(`/api/admin/integrations/${id}/authorize`)).status).toBe(403);
    });

    it('sends the admin to Atlassian’s consent page with the app’s client id, scopes with a refresh token, and our callback', async () => {
      const id = (await create()).body.id as number;
      const { done, consentUrl } = await authorize(s.admin, id);
      expect(Object.fromEntries(consentUrl.searchParams)).toMatchObject({
        audience: 'api.atlassian.com',
        client_id: 'radar-app',
        scope: 'read:jira-work write:jira-work read:jira-user offline_access',
        response_type: 'code',
        redirect_uri: 'http://localhost:8080/api/admin/integrations/oauth/callback',
      });
      expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
    });

    it('keeps who authorized it and when, and the tokens sealed', async () => {
      await authorized();
      const listed = (await s.admin.get('/api/admin/integrations')).body.trackers[0];
      expect(listed.authorization).toMatchObject({ authorized: true, authorizedBy: 'Radar Bot', authorizedAt: '2026-11-26T12:00:00.000Z' });
      const { rows } = await s.t.database.pool.query<{ oauth_sealed: string }>('SELECT oauth_sealed FROM integrations');
      expect(rows[0]?.oauth_sealed).toMatch(/^v1\./);
      expect(rows[0]?.oauth_sealed).not.toMatch(/at-1|rt-1/);
    });

    it('passes Test once authorized', async () => {
      const id = await authorized();
      const test = await s.admin.post(`/api/admin/integrations/${id}/test`);
      expect(test.body.ok).toBe(true);
    });

    it('pushes through the gateway to the site Atlassian lists for the account', async () => {
      const id = await authorized();
      const pushedIssue = await s.moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: id });
      expect(pushedIssue.status).toBe(201);
      expect(pushedIssue.body).toMatchObject({ key: 'CHG-1', url: `${jira.url}/browse/CHG-1` });
      expect(jira.calls.some((c) => c.method === 'POST' && c.path === '/ex/jira/cloud-7/rest/api/3/issue')).toBe(true);
    });

    it('renews an expired access token once, the refresh token rotating, and the call goes through', async () => {
      const id = await pushed();
      s.t.clock.advance(2 * 60 * 60 * 1000);
      jira.close('CHG-1');
      const pulled = await s.admin.post(`/api/admin/integrations/${id}/pull`);
      expect(pulled.body).toMatchObject({ read: 1, changed: 1 });
      expect(jira.oauth?.grants).toEqual(['authorization_code', 'refresh_token']);
      s.t.clock.advance(2 * 60 * 60 * 1000);
      expect((await s.admin.post(`/api/admin/integrations/${id}/pull`)).body).toMatchObject({ read: 1 });
      expect(jira.oauth?.grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
    });

    it('sends a callback with another admin’s state back to the page with the reason', async () => {
      const state = await startedState(await authorized());
      const stolen = await s.otherAdmin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
      expect(oauthErrorOf(stolen)).toBe('The authorization was started by another admin: start it again');
    });

    it('sends a callback with a forged state back to the page with the reason', async () => {
      await authorized();
      const forged = await s.admin.get('/api/admin/integrations/oauth/callback?code=x&state=v1.forged');
      expect(oauthErrorOf(forged)).toBe('The authorization answer was not one this installation asked for');
    });

    it('sends a refused consent back to the page with the tracker’s reason', async () => {
      await authorized();
      const refused = await s.admin.get('/api/admin/integrations/oauth/callback?error=access_denied&error_description=The%20user%20denied%20access');
      expect(oauthErrorOf(refused)).toBe('Not authorized: The user denied access');
    });

    it('sends a callback over 10 minutes late back to the page with the reason', async () => {
      const state = await startedState(await authorized());
      s.t.clock.advance(11 * 60 * 1000);
      const late = await s.admin.get(`/api/admin/integrations/oauth/callback?code=x&state=${encodeURIComponent(state)}`);
      expect(oauthErrorOf(late)).toMatch(/longer than 10 minutes/);
    });

    it('sends a callback without a state back to the page', async () => {
      expect((await s.admin.get('/api/admin/integrations/oauth/callback?code=x')).status).toBe(303);
    });

    it('drops the authorization when the app changes', async () => {
      const id = await authorized();
      await s.admin.put(`/api/admin/integrations/${id}`).send({ settings: { clientId: 'other-app' } });
      expect((await s.admin.get('/api/admin/integrations')).body.trackers[0].authorization.authorized).toBe(false);
    });

    it('needs an API token of its own to sign in with a token instead', async () => {
      const id = await authorized();
      const noToken = await s.admin.put(`/api/admin/integrations/${id}`).send({ settings: { auth: 'token', email: 'bot@contoso.com' } });
      expect(noToken.status).toBe(400);
      expect(noToken.body.error.issues[0].path).toBe('apiToken');
      expect(
        (await s.admin.put(`/api/admin/integrations/${id}`).send({ settings: { auth: 'token', email: 'bot@contoso.com' }, apiToken: 'jira-token' })).status,
      ).toBe(200);
    });
  });

  describe('a lost authorization, a site out of reach, and ServiceNow', () => {
    let jira: Awaited<ReturnType<typeof startJiraServer>>;
    let snow: Awaited<ReturnType<typeof startServiceNowServer>>;
    let s: SetUp;
    const jiraBody = { kind: 'jira', name: 'Jira (OAuth)', auth: 'oauth', projectKey: 'CHG', issueType: 'Task', ...CLIENT };
    beforeEach(async () => {
      jira = await startJiraServer({ oauth: CLIENT });
      snow = await startServiceNowServer({ oauth: CLIENT });
      servers.push(jira, snow);
      s = await setUp({ ATLASSIAN_AUTH_URL: jira.url, ATLASSIAN_API_URL: jira.url });
    });
    /** Authorized, then the tracker revokes every grant and two hours pass (the access token expired). */
    const authorizedThenRevoked = async () => {
      const created = await s.admin.post('/api/admin/integrations').send({ ...jiraBody, baseUrl: jira.url });
      const id = created.body.id as number;
      await authorize(s.admin, id);
      jira.oauth?.revokeAll();
      s.t.clock.advance(2 * 60 * 60 * 1000);
      return id;
    };
    /** A ServiceNow tracker with an OAuth client, authorized. */
    const serviceNow = async () => {
      const sn = await s.admin
        .post('/api/admin/integrations')
        .send({ kind: 'servicenow', name: 'ITSM (OAuth)', baseUrl: snow.url, auth: 'oauth', table: 'sc_task', ...CLIENT });
      return { sn, ...(await authorize(s.admin, sn.body.id as number)) };
    };

    it('says so when the site is named by another host than the one Atlassian lists for the account', async () => {
      const elsewhere = await s.admin.post('/api/admin/integrations').send({ ...jiraBody, baseUrl: jira.url.replace('127.0.0.1', 'localhost') });
      const { done: notReached } = await authorize(s.admin, elsewhere.body.id as number);
      expect(oauthErrorOf(notReached)).toMatch(new RegExp(`cannot reach http://localhost:\\d+ \\(it reaches ${jira.url.replace(/[.:/]/g, '\\$&')}\\)`));
    });

    it('asks for a new authorization when the renewal is refused', async () => {
      const id = await authorizedThenRevoked();
      const pulled = await s.admin.post(`/api/admin/integrations/${id}/test`);
      expect(pulled.body.checks[0].message).toBe(
        'The authorization was refused when renewed: Unknown or invalid refresh token. Authorize again in Admin → Trackers',
      );
    });

    it('works again once authorized again', async () => {
      const id = await authorizedThenRevoked();
      await s.admin.post(`/api/admin/integrations/${id}/test`);
      await authorize(s.admin, id);
      expect((await s.admin.post(`/api/admin/integrations/${id}/test`)).body.ok).toBe(true);
    });

    it('authorizes ServiceNow on the instance’s own consent page', async () => {
      const { sn, consentUrl } = await serviceNow();
      expect(sn.status).toBe(201);
      expect(consentUrl.origin + consentUrl.pathname).toBe(`${snow.url}/oauth_auth.do`);
    });

    it('passes Test on ServiceNow once authorized (its token endpoint takes a form)', async () => {
      const { sn } = await serviceNow();
      expect((await s.admin.post(`/api/admin/integrations/${sn.body.id}/test`)).body).toMatchObject({ ok: true });
    });

    it('pushes to ServiceNow’s Table API with Bearer calls, on the one authorization code', async () => {
      const { sn } = await serviceNow();
      const pushed = await s.moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: sn.body.id });
      expect(pushed.status).toBe(201);
      expect(snow.records.size).toBe(1);
      expect(snow.oauth?.grants).toEqual(['authorization_code']);
    });
  });
});
