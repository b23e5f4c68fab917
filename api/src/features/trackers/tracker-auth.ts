import { jiraSettings, plannerSettings, serviceNowSettings } from '@radar/contracts';
import type { TenantRow } from '../../db/schema/index.js';
import { deriveSealKey, seal, unseal } from '../../lib/sealed-box.js';
import { hostsOf } from '../tenants/tenant-graph.js';
import { openTenantSecret, tenantSecretKey } from '../tenants/tenant-secret.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import type { TrackerConnector } from './connectors/connector.js';
import { createJiraConnector, tokenAccess } from './connectors/jira.js';
import type { GraphTokenCache, PlannerTenant } from './connectors/graph-session.js';
import { createPlannerConnector } from './connectors/planner.js';
import { basicAccess, createServiceNowConnector } from './connectors/servicenow.js';
import {
  consentUrl,
  exchangeCode,
  fresh,
  jiraSiteOf,
  graphUserOf,
  oauthServerOf,
  OAUTH_STATE_MS,
  openState,
  pkcePair,
  plannerServerOf,
  openTokens,
  refreshTokens,
  sealState,
  sealTokens,
  STATE_USED,
  stateHashOf,
  type OAuthTokens,
} from './oauth.js';
import { createOAuthStatesRepo } from './oauth-states.repo.js';
import { createTrackersRepo, type TrackerRow } from './trackers.repo.js';
import { TrackerError, type TrackerHttpOptions } from './tracker-http.js';
import { trackerSecretKey } from './tracker-queue.js';
import type { TrackerServiceDeps } from './tracker.service.js';

export const NOT_AUTHORIZED = 'Not authorized yet: use Authorize in Admin → Trackers';

/**
 * How M365 Radar signs in to the trackers: the sealed secrets, a Planner tracker's tenant app, the OAuth
 * consent, tokens and their renewal, and from them each tracker's connector (or why there is none).
 */
export function createTrackerAuth(deps: TrackerServiceDeps, http: () => TrackerHttpOptions) {
  const { db, clock, log } = deps;
  const key = trackerSecretKey(deps.secret);
  const sealSecret = (plain: string) => seal(key, plain);
  function openSecret(sealed: string | null): string | null {
    if (!sealed) return null;
    try {
      return unseal(key, sealed);
    } catch {
      return null;
    }
  }

  const graphTokens: GraphTokenCache = new Map();
  const tenantKey = tenantSecretKey(deps.secret);

  /** The connected tenant a Planner tracker signs in as, or why it cannot. */
  async function plannerTenantOf(tenantId: number): Promise<PlannerTenant | string> {
    return plannerTenantFrom(await createTenantsRepo(db).get(tenantId));
  }

  /** The Planner connection of a tenant row already read, or what keeps it from connecting. */
  function plannerTenantFrom(tenant: TenantRow | null): PlannerTenant | string {
    if (!tenant) return 'The tenant of this Planner tracker was removed: choose another tenant';
    const secret = openTenantSecret(tenantKey, tenant.clientSecretSealed);
    if (!secret || !tenant.clientId) return `${tenant.name} has no readable client secret: enter it again in Admin → Tenants`;
    const hosts = hostsOf(deps.config, tenant.cloud as PlannerTenant['cloud']);
    return {
      directoryId: tenant.directoryId,
      name: tenant.name,
      cloud: tenant.cloud as PlannerTenant['cloud'],
      clientId: tenant.clientId,
      clientSecret: secret,
      authorityUrl: hosts.authorityUrl,
      graphUrl: hosts.graphUrl,
    };
  }

  // ---------------------------------------------------------------- OAuth sign-in

  const stateKey = deriveSealKey(deps.secret, 'radar-oauth-state-v1');
  /** The tokens this process last saw per tracker; the database's copy wins when renewing. */
  const oauthCache = new Map<number, OAuthTokens>();
  const renewing = new Map<number, Promise<OAuthTokens>>();
  const callbackUrl = `${deps.publicUrl.replace(/\/+$/, '')}/api/admin/integrations/oauth/callback`;

  /** The tokens of a tracker's authorization: this process's newest copy, else the stored one. */
  const keptTokens = (row: TrackerRow) => oauthCache.get(row.id) ?? openTokens(key, row.oauthSealed);

  type SignIn = { server: ReturnType<typeof oauthServerOf>; client: { id: string; secret: string } };
  /** Where a tracker's OAuth app authorizes and renews, and the app itself (its client id and sealed secret). */
  const trackerSignIn = (kind: 'jira' | 'servicenow', settings: { baseUrl: string; clientId: string }, secret: string): SignIn => ({
    server: oauthServerOf(kind, settings, deps.config),
    client: { id: settings.clientId, secret },
  });
  /** Planner's delegated sign-in: Entra in the tenant, with the tenant's app. */
  const plannerSignIn = (tenant: PlannerTenant): SignIn => ({ server: plannerServerOf(tenant), client: { id: tenant.clientId, secret: tenant.clientSecret } });
  /** The Authorization header's token of a signed-in tracker, renewed as it expires. */
  const bearerOf = (row: TrackerRow, signIn: SignIn) => async () => (await accessToken(row, signIn.server, signIn.client)).accessToken;

  /**
   * A good access token: the one kept while it has a minute left, else renewed with the refresh token under the
   * tracker's row lock, so two processes never spend the same (rotating) refresh token; the new tokens are sealed
   * back in the same transaction.
   */
  async function accessToken(row: TrackerRow, server: SignIn['server'], client: SignIn['client']) {
    const kept = keptTokens(row);
    if (!kept) throw new TrackerError(NOT_AUTHORIZED, null, false);
    if (fresh(kept, clock.now().getTime())) return kept;
    let pending = renewing.get(row.id);
    if (!pending) {
      pending = db
        .transaction(async (tx) => {
          const repo = createTrackersRepo(tx);
          const current = openTokens(key, (await repo.lockedById(row.id))?.oauthSealed ?? null);
          if (!current) throw new TrackerError(NOT_AUTHORIZED, null, false);
          if (fresh(current, clock.now().getTime())) return current;
          const next = await refreshTokens(server, http(), client, current, clock.now().getTime());
          await repo.update(row.id, { oauthSealed: sealTokens(key, next) });
          return next;
        })
        .then((tokens) => {
          oauthCache.set(row.id, tokens);
          return tokens;
        })
        .finally(() => renewing.delete(row.id));
      renewing.set(row.id, pending);
    }
    return pending;
  }

  /**
   * Where a tracker that signs in with OAuth (or Planner's delegated sign-in) authorizes: the consent page, the
   * token endpoint and the client; a string says why it cannot.
   */
  async function oauthOf(row: TrackerRow) {
    if (row.kind === 'planner') {
      const settings = plannerSettings.safeParse(row.settings);
      if (!settings.success || settings.data.auth !== 'delegated') return `${row.name} does not sign in as a user`;
      const tenant = await plannerTenantOf(settings.data.tenantId);
      if (typeof tenant === 'string') return tenant;
      return { ...plannerSignIn(tenant), tenant, siteUrl: null };
    }
    const settings = row.kind === 'jira' ? jiraSettings.safeParse(row.settings) : serviceNowSettings.safeParse(row.settings);
    if (!settings.success || settings.data.auth !== 'oauth') return `${row.name} does not sign in with OAuth`;
    const secret = openSecret(row.secretSealed);
    if (!secret) return 'The client secret cannot be read: enter it again';
    return {
      ...trackerSignIn(row.kind as 'jira' | 'servicenow', settings.data, secret),
      tenant: null,
      siteUrl: row.kind === 'jira' ? settings.data.baseUrl : null,
    };
  }

  /**
   * The consent page of a tracker that signs in with OAuth, its state bound to the admin and kept (hashed) with
   * the PKCE verifier (sealed) until the callback takes it.
   */
  async function authorizeUrlOf(row: TrackerRow, userId: number): Promise<string> {
    const oauth = await oauthOf(row);
    if (typeof oauth === 'string') throw new TrackerError(oauth, null, false);
    const now = clock.now().getTime();
    const state = sealState(stateKey, row.id, userId, now);
    const pkce = pkcePair();
    await createOAuthStatesRepo(db).add({
      stateHash: stateHashOf(state),
      trackerId: row.id,
      userId,
      verifierSealed: seal(stateKey, pkce.verifier),
      expiresAt: new Date(now + OAUTH_STATE_MS),
    });
    return consentUrl(oauth.server, oauth.client.id, callbackUrl, state, pkce.challenge);
  }

  /**
   * The consent page came back with a code: it is traded for tokens (and, for Jira, the site's cloud id; for each,
   * who authorized), sealed into the tracker. Answers the tracker, or throws a TrackerError saying why not.
   */
  async function completeAuthorization(state: string, code: string, userId: number): Promise<TrackerRow> {
    const opened = openState(stateKey, state, userId, clock.now().getTime());
    if (typeof opened === 'string') throw new TrackerError(opened, null, false);
    // A state works once: the first callback takes its consent, a replay finds none.
    const consent = await createOAuthStatesRepo(db).take(stateHashOf(state));
    if (!consent || consent.trackerId !== opened.trackerId) throw new TrackerError(STATE_USED, null, false);
    const repo = createTrackersRepo(db);
    const row = await repo.byId(opened.trackerId);
    if (!row) throw new TrackerError('The tracker was deleted meanwhile', null, false);
    const oauth = await oauthOf(row);
    if (typeof oauth === 'string') throw new TrackerError(oauth, null, false);
    const now = clock.now().getTime();
    let tokens = await exchangeCode(oauth.server, http(), oauth.client, code, callbackUrl, unseal(stateKey, consent.verifierSealed), now);
    if (oauth.siteUrl) tokens = { ...tokens, ...(await jiraSiteOf(http(), deps.config.ATLASSIAN_API_URL, tokens.accessToken, oauth.siteUrl)) };
    if (oauth.tenant) tokens = { ...tokens, authorizedBy: await graphUserOf(http(), oauth.tenant.graphUrl, tokens.accessToken) };
    await repo.update(row.id, { oauthSealed: sealTokens(key, tokens), lastPullError: null, updatedAt: clock.now() });
    oauthCache.set(row.id, tokens);
    log.info({ trackerId: row.id, userId }, 'tracker authorized');
    return row;
  }

  /** The tracker's connector, or why there is none (a secret that cannot be read, settings no longer valid). */
  async function connectorFor(row: TrackerRow): Promise<TrackerConnector | string> {
    if (row.kind === 'planner') {
      const settings = plannerSettings.safeParse(row.settings);
      if (!settings.success) return 'The settings are not valid any more: edit the tracker';
      const tenant = await plannerTenantOf(settings.data.tenantId);
      if (typeof tenant === 'string') return tenant;
      const now = () => clock.now().getTime();
      // Graph's hosts are the operator's configuration, not an admin's entry: called without the SSRF guard.
      if (settings.data.auth === 'application') return createPlannerConnector(settings.data, tenant, { ...http(), guard: null }, graphTokens, now);
      const tokens = keptTokens(row);
      if (!tokens) return NOT_AUTHORIZED;
      return createPlannerConnector(settings.data, tenant, { ...http(), guard: null }, graphTokens, now, {
        token: bearerOf(row, plannerSignIn(tenant)),
        by: tokens.authorizedBy,
      });
    }
    const secret = openSecret(row.secretSealed);
    if (!secret) return 'The secret cannot be read (was SESSION_SECRET changed?): enter it again in Admin → Trackers';
    const invalid = 'The settings are not valid any more: edit the tracker';
    if (row.kind === 'jira') {
      const parsed = jiraSettings.safeParse(row.settings);
      if (!parsed.success) return invalid;
      const settings = parsed.data;
      if (settings.auth === 'token') return createJiraConnector(settings, tokenAccess(settings, secret, http()));
      const tokens = keptTokens(row);
      if (!tokens?.cloudId) return NOT_AUTHORIZED;
      const token = bearerOf(row, trackerSignIn('jira', settings, secret));
      return createJiraConnector(settings, {
        apiBase: `${deps.config.ATLASSIAN_API_URL.replace(/\/+$/, '')}/ex/jira/${encodeURIComponent(tokens.cloudId)}`,
        authorization: async () => `Bearer ${await token()}`,
        refused: 'Atlassian refused the OAuth token (revoked, or the app lost its scopes): authorize again',
        // Atlassian's gateway is the operator's configuration, not an admin's entry.
        http: { ...http(), guard: null },
      });
    }
    if (row.kind === 'servicenow') {
      const parsed = serviceNowSettings.safeParse(row.settings);
      if (!parsed.success) return invalid;
      const settings = parsed.data;
      if (settings.auth === 'basic') return createServiceNowConnector(settings, basicAccess(settings, secret, http()));
      if (!keptTokens(row)) return NOT_AUTHORIZED;
      const token = bearerOf(row, trackerSignIn('servicenow', settings, secret));
      return createServiceNowConnector(settings, {
        authorization: async () => `Bearer ${await token()}`,
        who: 'the authorized user',
        refused: 'ServiceNow refused the OAuth token (revoked or expired): authorize again',
        http: http(),
      });
    }
    return `Unknown tracker kind ${row.kind}`;
  }

  return {
    key,
    graphTokens,
    sealSecret,
    openSecret,
    plannerTenantFrom,
    connectorFor,
    callbackUrl,
    authorizeUrlOf,
    completeAuthorization,
    /** Forgets the tokens kept for a tracker whose sign-in changed. */
    forgetTokens: (id: number) => oauthCache.delete(id),
  };
}
export type TrackerAuth = ReturnType<typeof createTrackerAuth>;
