import crypto from 'node:crypto';
import { createElement } from 'react';
import {
  INTEGRATION_KIND_LABELS,
  INTEGRATION_PAUSE_AFTER_FAILURES,
  jiraSettings,
  plannerSettings,
  serviceNowSettings,
  SOURCE_ITEM_NOUNS,
  TRIAGE_STATE_LABELS,
  type IntegrationCheck,
  type IntegrationKind,
  type IntegrationPullResult,
  type PlannerOptionsResponse,
} from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import type { DbOrTx } from '../../db/client.js';
import type { TenantRow } from '../../db/schema/index.js';
import { InputError } from '../../lib/errors.js';
import { deriveSealKey, seal, unseal } from '../../lib/sealed-box.js';
import type { MailService } from '../../mail/mail.service.js';
import { renderMail } from '../../mail/render.js';
import { IntegrationPausedMail, integrationPausedSubject, integrationPausedText } from '../../mail/templates/IntegrationPausedMail.js';
import { parseRetryAfter } from '../../sources/http.js';
import { systemResolver, type GuardOptions, type Resolver } from '../alerts/ssrf-guard.js';
import { touchedChanges } from '../alerts/alert-matching.repo.js';
import { summarizeChange } from '../feeds/change-summary.js';
import { shareUrlOf } from '../items/share-link.js';
import { adminAddresses } from '../admin/admin-guards.repo.js';
import { hostsOf } from '../tenants/tenant-graph.js';
import { openTenantSecret, tenantSecretKey } from '../tenants/tenant-secret.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import type { RemoteTask, TaskDraft, TrackerConnector } from './connectors/connector.js';
import { createJiraConnector, tokenAccess } from './connectors/jira.js';
import { createGraphSession, createPlannerConnector, plannerOptions, type GraphTokenCache, type PlannerTenant } from './connectors/planner.js';
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
import { createTrackedRecordsRepo, type RecordChange } from './tracker-records.repo.js';
import { createIntegrationsRepo, type IntegrationRow, type TrackerLinkRow, type TrackerOutboxRow } from './integrations.repo.js';
import { TrackerError, type TrackerHttpOptions } from './tracker-http.js';
import { refusalToCarry } from './tracker-tenants.repo.js';
import { usersSeeingTenant } from '../triage/triage-audience.repo.js';

export const TRACKER_DELIVERY = {
  batchSize: 20,
  /** Attempts before a call is given up. */
  maxAttempts: 8,
  /** At most 6 hours between retries (the first after TRACKER_RETRY_BASE_MS, doubling). */
  maxBackoffMs: 6 * 60 * 60 * 1000,
  /** A tracker's Retry-After is honoured up to this. */
  maxRetryAfterMs: 60 * 60 * 1000,
  /** A call left 'sending' this long (the process died mid-call) is claimed again. */
  leaseMs: 5 * 60 * 1000,
  timeoutMs: 15_000,
  /** Tasks read per integration per pull. */
  pullBatch: 200,
  /** Log entries and finished calls are kept this long. */
  retentionMs: 30 * 24 * 60 * 60 * 1000,
};

const EXCERPT = 500;
const NOT_AUTHORIZED = 'Not authorized yet: use Authorize in Admin → Integrations';
/** How far back the pull looks for syncs whose comments a crash may have missed. */
const COMMENT_SWEEP_MS = 24 * 60 * 60 * 1000;

/**
 * Pushes a record to a tracker inside the caller's transaction (refused, naming `integrationId`, when the tracker may
 * not carry the record's private tenant: refusalToCarry): the record's one link (made on the first push, with
 * its idempotency key), and a create (no task yet, or `recreate` after it was deleted in the tracker) or an update
 * queued; a push while one is waiting joins it. A task deleted in the tracker is left alone unless `recreate`.
 * Returns the link and the queued call (null when nothing was queued).
 */
export async function queueTaskPush(
  tx: DbOrTx,
  integrationId: number,
  recordId: number,
  recreate: boolean,
  now: Date,
): Promise<{ link: TrackerLinkRow; outboxId: number | null }> {
  const repo = createIntegrationsRepo(tx);
  const integration = await repo.byId(integrationId);
  if (!integration) throw new InputError(`No integration has id ${integrationId}`, [{ path: 'integrationId', message: 'not an integration' }]);
  const refusal = await refusalToCarry(tx, integration, recordId);
  if (refusal) throw new InputError(refusal, [{ path: 'integrationId', message: refusal }]);
  let link = await repo.lockedLink(integrationId, recordId);
  if (!link) {
    await repo.insertLink({
      integrationId,
      recordId,
      idempotencyKey: `${integrationId}-${recordId}-${crypto.randomBytes(6).toString('hex')}`,
      createdAt: now,
      updatedAt: now,
    });
    link = await repo.lockedLink(integrationId, recordId);
    if (!link) throw new Error('tracker link vanished');
  }
  if (link.status === 'deleted' && !recreate) return { link, outboxId: null };
  if (link.status === 'failed') await repo.updateLink(link.id, { status: 'queued', lastError: null, updatedAt: now });
  const action = link.externalId && link.status !== 'deleted' ? 'update' : 'create';
  const outboxId = await repo.enqueue({ integrationId, linkId: link.id, action, now });
  return { link: (await repo.link(link.id)) ?? link, outboxId };
}

/**
 * Records changed here (owner, due date, priority, state): their tasks are brought up to date, an update queued per
 * task in the caller's transaction (joining one already waiting). Returns how many were queued.
 */
export async function queueLinkedUpdates(tx: DbOrTx, recordIds: readonly number[], now: Date): Promise<number> {
  const repo = createIntegrationsRepo(tx);
  const links = await repo.madeLinksOfRecords(recordIds);
  for (const link of links) await repo.enqueue({ integrationId: link.integrationId, linkId: link.id, action: 'update', now });
  return links.length;
}

/** Tracker secrets are sealed with a key of their own, derived from the installation secret. */
export const integrationSecretKey = (installationSecret: string) => deriveSealKey(installationSecret, 'radar-integration-secrets-v1');

export interface TrackerServiceDeps extends Pick<BaseDeps, 'db' | 'clock' | 'log' | 'publicUrl' | 'secret' | 'config'> {
  mail: Pick<MailService, 'enqueue' | 'kick'>;
  /** DNS for the SSRF guard (tests answer chosen addresses). */
  resolve?: Resolver;
}

/** What one call did: sent, to be retried (when), or failed for good. */
interface CallResult {
  outcome: 'sent' | 'retrying' | 'failed';
  statusCode: number | null;
  latencyMs: number | null;
  response: string;
  error: string | null;
  retryInMs?: number;
  /** A comment waiting for its task's create: put back without counting as an attempt or a failure of the tracker. */
  waiting?: boolean;
}

/**
 * Tracker tasks of triage records: pushing (through the outbox), reading back (the pull), and the item's changes as
 * comments. Every call to a tracker is one entry of the integration's delivery log; retryable failures (network,
 * timeouts, 429 with its Retry-After, 5xx) are retried with backoff; INTEGRATION_PAUSE_AFTER_FAILURES failed calls in
 * a row pause the integration and mail the admins, and its calls wait until it is resumed.
 */
export function createTrackerService(deps: TrackerServiceDeps) {
  const { db, clock, log } = deps;
  const backoffMs = (attempts: number) => Math.min(deps.config.TRACKER_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), TRACKER_DELIVERY.maxBackoffMs);
  const key = integrationSecretKey(deps.secret);
  const guard: GuardOptions = { allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOKS, resolve: deps.resolve ?? systemResolver };
  const shutdown = new AbortController();
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  let kicker: (() => Promise<unknown>) | null = null;
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };
  const http = (): TrackerHttpOptions => ({ guard, timeoutMs: TRACKER_DELIVERY.timeoutMs, abort: shutdown.signal });

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

  /** The connected tenant a Planner integration signs in as, or why it cannot. */
  async function plannerTenantOf(tenantId: number): Promise<PlannerTenant | string> {
    return plannerTenantFrom(await createTenantsRepo(db).get(tenantId));
  }

  /** The Planner connection of a tenant row already read, or what keeps it from connecting. */
  function plannerTenantFrom(tenant: TenantRow | null): PlannerTenant | string {
    if (!tenant) return 'The tenant of this Planner integration was removed: choose another tenant';
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
  /** The tokens this process last saw per integration; the database's copy wins when renewing. */
  const oauthCache = new Map<number, OAuthTokens>();
  const renewing = new Map<number, Promise<OAuthTokens>>();
  const callbackUrl = `${deps.publicUrl.replace(/\/+$/, '')}/api/admin/integrations/oauth/callback`;

  /** The tokens of an integration's authorization: this process's newest copy, else the stored one. */
  const keptTokens = (row: IntegrationRow) => oauthCache.get(row.id) ?? openTokens(key, row.oauthSealed);

  type SignIn = { server: ReturnType<typeof oauthServerOf>; client: { id: string; secret: string } };
  /** Where a tracker's OAuth app authorizes and renews, and the app itself (its client id and sealed secret). */
  const trackerSignIn = (kind: 'jira' | 'servicenow', settings: { baseUrl: string; clientId: string }, secret: string): SignIn => ({
    server: oauthServerOf(kind, settings, deps.config),
    client: { id: settings.clientId, secret },
  });
  /** Planner's delegated sign-in: Entra in the tenant, with the tenant's app. */
  const plannerSignIn = (tenant: PlannerTenant): SignIn => ({ server: plannerServerOf(tenant), client: { id: tenant.clientId, secret: tenant.clientSecret } });
  /** The Authorization header's token of a signed-in integration, renewed as it expires. */
  const bearerOf = (row: IntegrationRow, signIn: SignIn) => async () => (await accessToken(row, signIn.server, signIn.client)).accessToken;

  /**
   * A good access token: the one kept while it has a minute left, else renewed with the refresh token under the
   * integration's row lock, so two processes never spend the same (rotating) refresh token; the new tokens are sealed
   * back in the same transaction.
   */
  async function accessToken(row: IntegrationRow, server: SignIn['server'], client: SignIn['client']) {
    const kept = keptTokens(row);
    if (!kept) throw new TrackerError(NOT_AUTHORIZED, null, false);
    if (fresh(kept, clock.now().getTime())) return kept;
    let pending = renewing.get(row.id);
    if (!pending) {
      pending = db
        .transaction(async (tx) => {
          const repo = createIntegrationsRepo(tx);
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
   * Where an integration that signs in with OAuth (or Planner's delegated sign-in) authorizes: the consent page, the
   * token endpoint and the client; a string says why it cannot.
   */
  async function oauthOf(row: IntegrationRow) {
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
   * The consent page of an integration that signs in with OAuth, its state bound to the admin and kept (hashed) with
   * the PKCE verifier (sealed) until the callback takes it.
   */
  async function authorizeUrlOf(row: IntegrationRow, userId: number): Promise<string> {
    const oauth = await oauthOf(row);
    if (typeof oauth === 'string') throw new TrackerError(oauth, null, false);
    const now = clock.now().getTime();
    const state = sealState(stateKey, row.id, userId, now);
    const pkce = pkcePair();
    await createOAuthStatesRepo(db).add({
      stateHash: stateHashOf(state),
      integrationId: row.id,
      userId,
      verifierSealed: seal(stateKey, pkce.verifier),
      expiresAt: new Date(now + OAUTH_STATE_MS),
    });
    return consentUrl(oauth.server, oauth.client.id, callbackUrl, state, pkce.challenge);
  }

  /**
   * The consent page came back with a code: it is traded for tokens (and, for Jira, the site's cloud id; for each,
   * who authorized), sealed into the integration. Answers the integration, or throws a TrackerError saying why not.
   */
  async function completeAuthorization(state: string, code: string, userId: number): Promise<IntegrationRow> {
    const opened = openState(stateKey, state, userId, clock.now().getTime());
    if (typeof opened === 'string') throw new TrackerError(opened, null, false);
    // A state works once: the first callback takes its consent, a replay finds none.
    const consent = await createOAuthStatesRepo(db).take(stateHashOf(state));
    if (!consent || consent.integrationId !== opened.integrationId) throw new TrackerError(STATE_USED, null, false);
    const repo = createIntegrationsRepo(db);
    const row = await repo.byId(opened.integrationId);
    if (!row) throw new TrackerError('The integration was deleted meanwhile', null, false);
    const oauth = await oauthOf(row);
    if (typeof oauth === 'string') throw new TrackerError(oauth, null, false);
    const now = clock.now().getTime();
    let tokens = await exchangeCode(oauth.server, http(), oauth.client, code, callbackUrl, unseal(stateKey, consent.verifierSealed), now);
    if (oauth.siteUrl) tokens = { ...tokens, ...(await jiraSiteOf(http(), deps.config.ATLASSIAN_API_URL, tokens.accessToken, oauth.siteUrl)) };
    if (oauth.tenant) tokens = { ...tokens, authorizedBy: await graphUserOf(http(), oauth.tenant.graphUrl, tokens.accessToken) };
    await repo.update(row.id, { oauthSealed: sealTokens(key, tokens), lastPullError: null, updatedAt: clock.now() });
    oauthCache.set(row.id, tokens);
    log.info({ integrationId: row.id, userId }, 'integration authorized');
    return row;
  }

  /** The integration's connector, or why there is none (a secret that cannot be read, settings no longer valid). */
  async function connectorFor(row: IntegrationRow): Promise<TrackerConnector | string> {
    if (row.kind === 'planner') {
      const settings = plannerSettings.safeParse(row.settings);
      if (!settings.success) return 'The settings are not valid any more: edit the integration';
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
    if (!secret) return 'The secret cannot be read (was SESSION_SECRET changed?): enter it again in Admin → Integrations';
    const invalid = 'The settings are not valid any more: edit the integration';
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

  /** The task as the record and its item are now. */
  async function draftOf(tx: DbOrTx, link: TrackerLinkRow): Promise<TaskDraft | null> {
    const r = await createTrackedRecordsRepo(tx).get(link.recordId);
    if (!r) return null;
    const url = shareUrlOf(deps.publicUrl, { source: r.source, externalId: r.externalId });
    const description = [
      r.summary.trim(),
      '',
      `${SOURCE_ITEM_NOUNS[r.source]} ${r.externalId}${r.tenantName ? ` · Tenant: ${r.tenantName}` : ''}`,
      `Triage: ${TRIAGE_STATE_LABELS[r.state]}${r.dueDate ? ` · Due ${r.dueDate}` : ''}`,
      `Open in M365 Radar: ${url}`,
    ]
      .filter((line, i) => i > 0 || line)
      .join('\n');
    return {
      idempotencyKey: link.idempotencyKey,
      title: `${r.externalId}: ${r.title}`,
      description,
      dueDate: r.dueDate,
      priority: r.priority,
      assigneeEmail: r.ownerEmail,
      url,
    };
  }

  /** What a read found, stored on the link. */
  const remoteFields = (task: RemoteTask, now: Date) => ({
    externalId: task.id,
    externalKey: task.key,
    externalUrl: task.url,
    status: task.done ? 'done' : 'open',
    remoteState: task.state,
    remoteDone: task.done,
    remoteAssignee: task.assigneeEmail,
    remoteDue: task.dueDate,
    remoteUpdatedAt: task.updatedAt,
    lastError: null,
    updatedAt: now,
  });

  function classify(err: unknown, attempts: number): CallResult {
    if (!(err instanceof TrackerError)) throw err;
    const base = { statusCode: err.status, latencyMs: err.latencyMs, response: err.response.slice(0, EXCERPT), error: err.message };
    if (!err.retry) return { outcome: 'failed', ...base };
    const asked = err.status === 429 ? parseRetryAfter(err.retryAfter, clock.now().getTime()) : null;
    return { outcome: 'retrying', ...base, retryInMs: Math.min(asked ?? backoffMs(attempts), TRACKER_DELIVERY.maxRetryAfterMs) };
  }

  /** Makes one queued call; the link is brought up to date in the same step. */
  async function perform(row: TrackerOutboxRow, integration: IntegrationRow): Promise<CallResult> {
    const connector = await connectorFor(integration);
    if (typeof connector === 'string') return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: connector };
    const repo = createIntegrationsRepo(db);
    const link = await repo.link(row.linkId);
    if (!link) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The task link is gone' };
    const refusal = await refusalToCarry(db, integration, link.recordId);
    if (refusal) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: refusal };
    const started = performance.now();
    const ok = (response: string): CallResult => ({
      outcome: 'sent',
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      response,
      error: null,
    });
    try {
      const now = clock.now();
      if (row.action === 'comment') {
        if (!link.externalId || link.status === 'queued') {
          // The task is still being made: the comment waits for it (not a failure).
          return {
            outcome: 'retrying',
            statusCode: null,
            latencyMs: null,
            response: '',
            error: 'Waiting for the task to be created',
            retryInMs: 60_000,
            waiting: true,
          };
        }
        if (link.status === 'deleted')
          return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The task was deleted in the tracker' };
        const added = await connector.comment({ id: link.externalId, key: link.externalKey ?? link.externalId }, row.text ?? '');
        if (!added) {
          await repo.updateLink(link.id, { status: 'deleted', updatedAt: now });
          return { outcome: 'failed', statusCode: 404, latencyMs: null, response: '', error: 'The task was deleted in the tracker' };
        }
        return ok(`Comment added to ${link.externalKey ?? link.externalId}`);
      }
      if (link.externalId && link.status !== 'deleted') {
        const ref = { id: link.externalId, key: link.externalKey ?? link.externalId };
        // What changed in the tracker since the last read comes back first (the later change wins, both logged), so an
        // update never silently overwrites an owner or due date someone set there.
        const before = await connector.read(ref);
        if (before) {
          await db.transaction(async (tx) => {
            await applyRemote(tx, integration, link, before, now);
            await createIntegrationsRepo(tx).updateLink(link.id, { ...remoteFields(before, now), lastPulledAt: now });
          });
        }
        const draft = before ? await draftOf(db, link) : null;
        if (before && !draft) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The triage record is gone' };
        const updated = before && draft ? await connector.update(ref, draft) : null;
        if (!updated) {
          await repo.updateLink(link.id, { status: 'deleted', updatedAt: now });
          return {
            outcome: 'failed',
            statusCode: 404,
            latencyMs: null,
            response: '',
            error: 'The task was deleted in the tracker: push again to create it anew',
          };
        }
        await repo.updateLink(link.id, remoteFields(updated, now));
        return ok(`Updated ${updated.key}`);
      }
      const draft = await draftOf(db, link);
      if (!draft) return { outcome: 'failed', statusCode: null, latencyMs: null, response: '', error: 'The triage record is gone' };
      // A create retried after a lost answer finds the task it made (the idempotency key is in it).
      const existing = link.status === 'deleted' ? null : await connector.findByKey(link.idempotencyKey, draft);
      const task = existing ?? (await connector.create(draft));
      await repo.updateLink(link.id, remoteFields(task, now));
      if (task.needsUpdate) await repo.enqueue({ integrationId: integration.id, linkId: link.id, action: 'update', now, alone: true });
      return ok(existing ? `Found ${task.key}, made by an earlier attempt` : `Created ${task.key}`);
    } catch (err) {
      return classify(err, row.attempts);
    }
  }

  /** Logs a call, moves the outbox row and the integration's failure streak; the call that pauses it mails the admins. */
  async function record(integration: IntegrationRow, row: TrackerOutboxRow | null, linkId: number | null, action: string, result: CallResult) {
    const now = clock.now();
    const outcome = result.outcome === 'retrying' && row && row.attempts >= TRACKER_DELIVERY.maxAttempts ? 'failed' : result.outcome;
    // Waiting for the task's create is not the tracker's failure.
    const waiting = result.waiting === true;
    const mailed = await db.transaction(async (tx) => {
      const repo = createIntegrationsRepo(tx);
      if (!waiting) {
        await repo.insertAttempt({
          integrationId: integration.id,
          linkId,
          action,
          attemptedAt: now,
          outcome,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          responseExcerpt: result.response.slice(0, EXCERPT),
          error: result.error,
        });
      }
      if (row) {
        await repo.setOutbox(
          row.id,
          outcome === 'sent'
            ? { status: 'sent', sentAt: now, lastError: null }
            : outcome === 'failed'
              ? { status: 'failed', lastError: result.error }
              : {
                  status: 'pending',
                  lastError: result.error,
                  nextAttemptAt: new Date(now.getTime() + (result.retryInMs ?? backoffMs(row.attempts))),
                  ...(waiting ? { attempts: row.attempts - 1 } : {}),
                },
        );
        if (outcome === 'failed' && linkId !== null && (row.action === 'create' || row.action === 'update')) {
          const link = await repo.link(linkId);
          if (link && !link.externalId) await repo.updateLink(linkId, { status: 'failed', lastError: result.error, updatedAt: now });
          else if (link) await repo.updateLink(linkId, { lastError: result.error, updatedAt: now });
        }
      }
      if (waiting) return false;
      if (outcome === 'sent') {
        await repo.recordSuccess(integration.id);
        return false;
      }
      const streak = await repo.recordFailure(
        integration.id,
        now,
        INTEGRATION_PAUSE_AFTER_FAILURES,
        `Paused after ${INTEGRATION_PAUSE_AFTER_FAILURES} failed calls in a row`,
      );
      if (!streak.pausedNow) return false;
      const props = {
        publicUrl: deps.publicUrl,
        integrationName: integration.name,
        kindLabel: INTEGRATION_KIND_LABELS[integration.kind as IntegrationKind] ?? integration.kind,
        failures: streak.failures,
        lastError: result.error ?? 'unknown',
        settingsUrl: `${deps.publicUrl}/admin?tab=integrations`,
      };
      const rendered = await renderMail(createElement(IntegrationPausedMail, props), integrationPausedText(props));
      for (const to of await adminAddresses(tx, deps.config.ADMIN_EMAILS)) {
        await deps.mail.enqueue(tx, {
          kind: 'integration-paused',
          to,
          subject: integrationPausedSubject(props),
          ...rendered,
          dedupeKey: `integration-paused:${integration.id}:${now.toISOString()}:${to}`,
        });
      }
      log.warn({ integrationId: integration.id, failures: streak.failures }, 'integration paused after consecutive failures');
      return true;
    });
    if (mailed) deps.mail.kick();
    return outcome;
  }

  /** Makes the due calls (or only `onlyIds`); a shutdown lets the call in progress finish and releases the rest. */
  async function deliverDue(onlyIds?: number[]): Promise<{ sent: number; retrying: number; failed: number }> {
    const result = { sent: 0, retrying: 0, failed: 0 };
    const repo = createIntegrationsRepo(db);
    const claimed = await repo.claimDue(clock.now(), TRACKER_DELIVERY.batchSize, TRACKER_DELIVERY.leaseMs, onlyIds);
    const integrations = new Map<number, IntegrationRow | null>();
    for (const [index, row] of claimed.entries()) {
      if (stopping) {
        await repo.release(
          claimed.slice(index).map((r) => r.id),
          clock.now(),
        );
        break;
      }
      if (!integrations.has(row.integrationId)) integrations.set(row.integrationId, await repo.byId(row.integrationId));
      const integration = integrations.get(row.integrationId);
      if (!integration) continue;
      const outcome = await record(integration, row, row.linkId, row.action, await perform(row, integration));
      result[outcome]++;
      // A pause stops the rest of this integration's calls: they wait for the resume.
      if (outcome !== 'sent') integrations.set(row.integrationId, await repo.byId(row.integrationId));
      if (integrations.get(row.integrationId)?.paused) integrations.set(row.integrationId, null);
    }
    return result;
  }

  async function deliverRounds() {
    const total = { sent: 0, retrying: 0, failed: 0 };
    for (let round = 0; round < 50 && !stopping; round++) {
      const r = await deliverDue();
      total.sent += r.sent;
      total.retrying += r.retrying;
      total.failed += r.failed;
      if (r.sent + r.retrying + r.failed === 0) break;
    }
    return total;
  }

  // ------------------------------------------------------------------ the pull

  /** Writes what a read brought back into the record: one activity line per change, said to come from the tracker. */
  async function applyRemote(tx: DbOrTx, integration: IntegrationRow, link: TrackerLinkRow, task: RemoteTask, now: Date): Promise<boolean> {
    const records = createTrackedRecordsRepo(tx);
    const r = await records.get(link.recordId, true);
    if (!r) return false;
    const label = INTEGRATION_KIND_LABELS[integration.kind as IntegrationKind] ?? integration.kind;
    const changes: { field: string; before: string; after: string }[] = [];
    const set: RecordChange = {};
    if (task.done && link.remoteDone !== true && r.state !== 'done') {
      Object.assign(set, { state: 'done', done_at: now });
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[r.state], after: TRIAGE_STATE_LABELS.done });
    } else if (!task.done && link.remoteDone === true && r.state === 'done') {
      Object.assign(set, { state: 'in_progress', done_at: null });
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS.done, after: TRIAGE_STATE_LABELS.in_progress });
    }
    // Owner and due date: a change on the tracker's side comes back; when both sides changed since the last read, the
    // later change wins and the activity log says so.
    const localChanged = r.updatedAt !== null && (link.lastPulledAt === null || r.updatedAt > link.lastPulledAt);
    const remoteLater = !localChanged || (task.updatedAt !== null && r.updatedAt !== null && task.updatedAt > r.updatedAt);
    const conflicts: { field: string; kept: string; dropped: string; winner: string }[] = [];
    if (task.assigneeEmail && task.assigneeEmail !== link.remoteAssignee && task.assigneeEmail !== r.ownerEmail?.toLowerCase()) {
      const found = await records.userIdByEmail(task.assigneeEmail);
      // An assignee who may not see the record's tenant does not become its owner; the log says so.
      const userId = found !== null && (await usersSeeingTenant(tx, r.tenantId, [found])).has(found) ? found : null;
      if (found !== null && userId === null) {
        conflicts.push({
          field: 'owner',
          kept: r.ownerEmail ?? 'Unassigned',
          dropped: task.assigneeEmail,
          winner: 'M365 Radar (the assignee may not see this tenant)',
        });
      }
      if (userId !== null) {
        if (remoteLater) {
          set.owner_id = userId;
          changes.push({ field: 'owner', before: r.ownerEmail ?? 'Unassigned', after: task.assigneeEmail });
        } else conflicts.push({ field: 'owner', kept: r.ownerEmail ?? 'Unassigned', dropped: task.assigneeEmail, winner: 'M365 Radar' });
      }
    }
    if (task.dueDate !== link.remoteDue && task.dueDate !== r.dueDate && link.lastPulledAt !== null) {
      if (remoteLater) {
        Object.assign(set, { due_date: task.dueDate, due_source: 'manual' });
        changes.push({ field: 'dueDate', before: r.dueDate ?? 'None', after: task.dueDate ?? 'None' });
      } else conflicts.push({ field: 'dueDate', kept: r.dueDate ?? 'None', dropped: task.dueDate ?? 'None', winner: 'M365 Radar' });
    }
    await records.apply(link.recordId, set, now);
    if (changes.length > 0 || conflicts.length > 0) {
      const by = set.state === 'done' && task.closedBy ? ` by ${task.closedBy}` : '';
      await records.log(
        r,
        `${label} (${integration.name})`,
        {
          changes,
          ...(conflicts.length ? { conflicts } : {}),
          source: `${set.state === 'done' ? `closed in ${label}` : `changed in ${label}`}${by}`,
          task: task.key,
        },
        now,
      );
    }
    return changes.length > 0;
  }

  async function pull(integrationId: number): Promise<IntegrationPullResult> {
    const repo = createIntegrationsRepo(db);
    const integration = await repo.byId(integrationId);
    if (!integration) return { read: 0, changed: 0, missing: 0, message: 'No such integration' };
    const connector = await connectorFor(integration);
    if (typeof connector === 'string') {
      await repo.update(integration.id, { lastPullAt: clock.now(), lastPullError: connector });
      return { read: 0, changed: 0, missing: 0, message: connector };
    }
    let read = 0;
    let changed = 0;
    let missing = 0;
    let error: string | null = null;
    for (const link of await repo.linksToPull(integration.id, TRACKER_DELIVERY.pullBatch)) {
      if (stopping) break;
      const started = performance.now();
      let task: RemoteTask | null;
      try {
        task = await connector.read({ id: link.externalId ?? '', key: link.externalKey ?? link.externalId ?? '' });
      } catch (err) {
        const result = classify(err, 1);
        error = result.error;
        await record(integration, null, link.id, 'read', result);
        // A tracker that is down or throttling: the next pull goes on where this one stopped.
        if (result.outcome === 'retrying') break;
        continue;
      }
      read++;
      const now = clock.now();
      const didChange = await db.transaction(async (tx) => {
        const txRepo = createIntegrationsRepo(tx);
        if (!task) {
          await txRepo.updateLink(link.id, { status: 'deleted', lastPulledAt: now, updatedAt: now });
          return false;
        }
        const moved = await applyRemote(tx, integration, link, task, now);
        await txRepo.updateLink(link.id, { ...remoteFields(task, now), lastPulledAt: now });
        return moved;
      });
      if (!task) missing++;
      if (didChange) changed++;
      await createIntegrationsRepo(db).recordSuccess(integration.id);
      log.debug({ integrationId, link: link.id, ms: Math.round(performance.now() - started) }, 'tracker task read');
    }
    await repo.update(integration.id, { lastPullAt: clock.now(), lastPullError: error });
    const message = error
      ? `Read ${read} tasks, then stopped: ${error}`
      : `Read ${read} ${read === 1 ? 'task' : 'tasks'}: ${changed} changed a triage record${missing ? `, ${missing} deleted in the tracker` : ''}`;
    return { read, changed, missing, message };
  }

  /** Queues the comments of one sync's changes on the tasks of the items it changed; returns how many were new. */
  async function commentsForSync(syncId: number): Promise<number> {
    const touched = (await touchedChanges(db, { syncId })).filter((c) => c.changeType !== 'new');
    if (touched.length === 0) return 0;
    const links = await createIntegrationsRepo(db).linksOfItems([...new Set(touched.map((c) => c.itemRowId))]);
    if (links.length === 0) return 0;
    const now = clock.now();
    let queued = 0;
    await db.transaction(async (tx) => {
      const repo = createIntegrationsRepo(tx);
      for (const link of links) {
        const lines = touched.filter((c) => c.itemRowId === link.itemId).flatMap((c) => summarizeChange(c, SOURCE_ITEM_NOUNS[c.source]).lines);
        if (lines.length === 0) continue;
        const text = ['M365 Radar: the item changed.', ...lines.map((l) => `- ${l}`)].join('\n');
        const dedupeKey = `comment:${link.id}:${syncId}`;
        if ((await repo.enqueue({ integrationId: link.integrationId, linkId: link.id, action: 'comment', text, dedupeKey, now })) !== null) queued++;
      }
    });
    return queued;
  }

  async function pullAll(): Promise<number> {
    let read = 0;
    for (const row of await createIntegrationsRepo(db).list()) {
      if (stopping || row.paused) continue;
      read += (await pull(row.id)).read;
    }
    return read;
  }

  function kick() {
    if (stopping) return;
    kicker?.().catch((err: unknown) => log.warn({ err }, 'could not schedule tracker delivery; the periodic job makes the calls'));
  }

  return {
    /** The SSRF guard every call passes (a site is checked with it when saved too). */
    guard,
    sealSecret,
    openSecret,
    connectorFor,
    callbackUrl,
    authorizeUrlOf,
    completeAuthorization,
    /** Who authorized an integration's OAuth sign-in and when (never the tokens). */
    authorizationOf(row: IntegrationRow) {
      const tokens = openTokens(key, row.oauthSealed);
      return tokens ? { authorizedBy: tokens.authorizedBy, authorizedAt: tokens.authorizedAt } : null;
    },
    /** Forgets the tokens kept for an integration whose sign-in changed. */
    forgetTokens: (id: number) => oauthCache.delete(id),

    /** Test: the connector's checks, each logged; a connection that cannot even be built says why. */
    async test(integration: IntegrationRow): Promise<IntegrationCheck[]> {
      const connector = await connectorFor(integration);
      if (typeof connector === 'string') return [{ name: 'Secret', ok: false, detail: connector }];
      const started = performance.now();
      try {
        const checks = await connector.test();
        const failed = checks.filter((c) => !c.ok);
        await createIntegrationsRepo(db).insertAttempt({
          integrationId: integration.id,
          action: 'test',
          attemptedAt: clock.now(),
          outcome: failed.length ? 'failed' : 'sent',
          latencyMs: Math.round(performance.now() - started),
          responseExcerpt: checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`).join('\n'),
          error: failed.length ? (failed[0]?.detail ?? null) : null,
        });
        return checks;
      } catch (err) {
        const result = classify(err, 1);
        await record(integration, null, null, 'test', result);
        return [{ name: 'Connection', ok: false, detail: result.error ?? 'No answer' }];
      }
    },

    /** The groups, plans and buckets a Planner target is chosen from, read with the app of `row`, the tenant asked for. */
    async plannerOptions(query: { tenantId: number; groupId?: string; planId?: string }, row: TenantRow): Promise<PlannerOptionsResponse> {
      const tenant = plannerTenantFrom(row);
      if (typeof tenant === 'string') return { groups: [], plans: [], buckets: [], problem: tenant };
      const session = createGraphSession(tenant, { ...http(), guard: null }, graphTokens, () => clock.now().getTime());
      return plannerOptions(session, query);
    },

    /** Pushes a record to a tracker inside the caller's transaction (see queueTaskPush). */
    push: (tx: DbOrTx, integrationId: number, recordId: number, recreate: boolean) => queueTaskPush(tx, integrationId, recordId, recreate, clock.now()),

    /** Makes the given calls now (after their transaction committed): the push answers with the task when it can. */
    deliverNow: (onlyIds?: number[]) => track(onlyIds ? deliverDue(onlyIds) : deliverRounds()),

    pull: (integrationId: number) => track(pull(integrationId)),
    pullAll: () => track(pullAll()),

    /**
     * The sync's hook: the calls the sync queued (rules that create tasks) are made, and each meaningful change of an
     * item with tasks becomes a comment on them (once per sync).
     */
    async onItemsChanged(changes: { syncId: number }): Promise<void> {
      // Triage rules may have queued tasks for the sync's new records: they go out now.
      kick();
      if ((await commentsForSync(changes.syncId)) > 0) kick();
    },

    /**
     * The pull's safety net: the comments of the last day's syncs, for a process that died between a sync's commit
     * and its hook (each comment has a dedupe key, so none is queued twice).
     */
    async sweepComments(): Promise<number> {
      const repo = createIntegrationsRepo(db);
      if (!(await repo.hasLinks())) return 0;
      let queued = 0;
      for (const syncId of await repo.changedSyncsSince(new Date(clock.now().getTime() - COMMENT_SWEEP_MS))) queued += await commentsForSync(syncId);
      if (queued > 0) kick();
      return queued;
    },

    /** Drops log entries and finished calls older than 30 days. */
    prune: () => createIntegrationsRepo(db).pruneAttempts(new Date(clock.now().getTime() - TRACKER_DELIVERY.retentionMs)),

    /** Graceful shutdown: no new calls; resolves when the ones in progress have finished. */
    async drain(): Promise<void> {
      stopping = true;
      kicker = null;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    /** Past the shutdown budget: cuts the requests still waiting for an answer. */
    abortCalls(): void {
      shutdown.abort(new Error('shutting down'));
    },
    /** The job runner registers how to run the tracker-deliver job at once. */
    setKicker(fn: (() => Promise<unknown>) | null) {
      if (!stopping) kicker = fn;
    },
    kick,
  };
}

export type TrackerService = ReturnType<typeof createTrackerService>;
