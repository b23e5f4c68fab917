import { licensedProductsOf, type FeedFormat } from '@radar/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import { FeedFormatError, FeedHttpError, NotConfiguredError } from '../../sources/errors.js';
import { createGraphMessagesClient, type GraphMessagesClient } from '../../sources/graph-messages.js';
import { messageRecordsFromPayload, parseJsonText, roadmapRecordsFromPayload } from '../../sources/normalize.js';
import { createRoadmapFeedClient, type RoadmapFeedClient } from '../../sources/roadmap-feed.js';
import { roadmapRecordsFromRss } from '../../sources/roadmap-rss.js';
import { roadmapRecordsFromV2Payload } from '../../sources/roadmap-v2.js';
import { driftOfMessages } from '../../sources/schema-drift.js';
import type { HealthRecord, MessageRecord, RoadmapRecord, SourceName } from '../../sources/types.js';
import { downloadMissingReports } from './health-reports.js';
import type { FetchedSnapshot, Loader } from './fetched.js';
import { reconcileLossyRecords } from './lossy-reconcile.js';
import { downloadMissingAttachments } from './message-attachments.js';
import { guardPolicyOf } from './snapshot-guard.js';
import { storedVocabulary } from './vocabulary.repo.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';
import { licenceOverrides } from '../admin/product-mappings/product-mappings.repo.js';
import type { TenantGraphClients } from '../tenants/tenant-graph.js';
import { createSyncService, type SyncService } from './sync.service.js';
import type { SyncChangeSet, SyncServiceDeps } from './sync-types.js';

export interface FeedClients {
  roadmap: RoadmapFeedClient;
  graph: GraphMessagesClient;
}

/** The production feed clients, configured from env (config.ts: ROADMAP_*, GRAPH_*, FEED_*). */
export function createFeedClients(config: Config, clock: Clock, log: Logger, db?: Db): FeedClients {
  const retry = { timeoutMs: config.FEED_TIMEOUT_MS, retries: config.FEED_RETRIES, log };
  return {
    roadmap: createRoadmapFeedClient({
      v2Url: config.ROADMAP_V2_URL === 'off' ? null : config.ROADMAP_V2_URL,
      url: config.ROADMAP_FEED_URL,
      rssUrl: config.ROADMAP_RSS_URL === 'off' ? null : config.ROADMAP_RSS_URL,
      userAgent: config.ROADMAP_USER_AGENT,
      vocabulary: db ? () => storedVocabulary(db) : undefined,
      ...retry,
    }),
    graph: createGraphMessagesClient({
      tenantId: config.GRAPH_TENANT_ID,
      clientId: config.GRAPH_CLIENT_ID,
      clientSecret: config.GRAPH_CLIENT_SECRET,
      authorityUrl: config.GRAPH_AUTHORITY_URL,
      apiUrl: config.GRAPH_API_URL,
      clock,
      ...retry,
    }),
  };
}

/** Roadmap loader: the chain (v2, v1 JSON, RSS), conditional; records of a lossy format are completed from the stored rows. */
export function roadmapLoader(client: RoadmapFeedClient): Loader<RoadmapRecord> {
  return async ({ previous, signal }) => {
    const result = await client.fetch(previous, { signal });
    const chain = { preferred: result.preferred, skipped: result.skipped };
    if (result.kind === 'unchanged') {
      const why = result.how === '304' ? 'The feed answered 304 Not Modified.' : 'The feed sent the same bytes as the last applied sync.';
      return { kind: 'unchanged', format: result.format, validators: result.validators, note: result.note ? `${result.note} ${why}` : why, chain };
    }
    const body = result.payload;
    const lossy = result.records.some((r) => r.lossy);
    return {
      kind: 'snapshot',
      format: result.format,
      records: result.records,
      payload: () => body,
      validators: result.validators,
      note: result.note,
      reconcile: lossy ? reconcileLossyRecords : undefined,
      drift: result.drift,
      chain,
    };
  };
}

/** Message Center loader: every Graph page; the raw messages are what a held snapshot keeps, and what drift is counted on. */
export function messagesLoader(client: GraphMessagesClient): Loader<MessageRecord> {
  return async ({ signal }) => {
    const records = await client.fetchAll({ signal });
    const raws = records.map((r) => r.raw ?? null);
    return {
      kind: 'snapshot',
      format: 'graph',
      records,
      payload: () => JSON.stringify(raws),
      validators: null,
      note: null,
      drift: driftOfMessages(raws),
    };
  };
}

/** Service Health loader: every issue the tenant lists, with its posts. */
export function healthLoader(client: GraphMessagesClient): Loader<HealthRecord> {
  return async ({ signal }) => {
    const records = await client.fetchHealthIssues({ signal });
    const raws = records.map((r) => r.raw ?? null);
    return { kind: 'snapshot', format: 'graph', records, payload: () => JSON.stringify(raws), validators: null, note: null };
  };
}

/** Parses a held snapshot's payload again, the way its format was read when it was held. */
export function heldPayloadParser(db: Db) {
  return async (
    source: SourceName,
    format: FeedFormat,
    payload: string,
  ): Promise<Pick<FetchedSnapshot<RoadmapRecord | MessageRecord>, 'records' | 'reconcile'>> => {
    if (source === 'message_center') return { records: messageRecordsFromPayload(parseJsonText(payload, 'held Message Center snapshot')) };
    const lossy = reconcileLossyRecords as FetchedSnapshot<RoadmapRecord | MessageRecord>['reconcile'];
    if (format === 'rss') return { records: roadmapRecordsFromRss(payload, await storedVocabulary(db)), reconcile: lossy };
    if (format === 'v2') return { records: roadmapRecordsFromV2Payload(parseJsonText(payload, 'held roadmap v2 snapshot')), reconcile: lossy };
    if (format === 'json' || format === 'file' || format === 'demo')
      return { records: roadmapRecordsFromPayload(parseJsonText(payload, 'held roadmap snapshot')) };
    throw new FeedFormatError(`held roadmap snapshot has an unknown format "${format}"`);
  };
}

/**
 * The sync service as the process uses it. `onItemsChanged` is where subscriber notifications plug in;
 * `heldAlerts` mails the admins when the snapshot guard holds a snapshot.
 */
export function createSyncServiceFor(
  base: Pick<BaseDeps, 'config' | 'db' | 'pool' | 'clock' | 'log'>,
  hooks: {
    onItemsChanged?: (changes: SyncChangeSet) => Promise<void> | void;
    /** Writes of other features that commit with every applied snapshot (triage's records). */
    reactors?: SyncServiceDeps['reactors'];
    clients?: FeedClients;
    heldAlerts?: SyncServiceDeps['heldAlerts'];
    /** Each tenant's Graph client (features/tenants); without it, Message Center is read unscoped. */
    tenantClients?: TenantGraphClients;
  } = {},
): SyncService {
  const clients = hooks.clients ?? createFeedClients(base.config, base.clock, base.log, base.db);
  const tenantClients = hooks.tenantClients;
  const tenantsRepo = createTenantsRepo(base.db);
  const tenantRow = async (id: number) => {
    const row = await tenantsRepo.get(id);
    if (!row) throw new NotConfiguredError('The tenant was removed');
    return row;
  };
  return createSyncService({
    db: base.db,
    pool: base.pool,
    clock: base.clock,
    log: base.log,
    fetchRoadmap: roadmapLoader(clients.roadmap),
    fetchMessages: messagesLoader(clients.graph),
    guard: guardPolicyOf(base.config),
    onItemsChanged: hooks.onItemsChanged,
    reactors: hooks.reactors,
    heldAlerts: hooks.heldAlerts,
    tenants: tenantClients
      ? {
          enabled: async () => (await tenantsRepo.enabled()).map((t) => ({ id: t.id, name: t.name })),
          loader: async (tenant) => messagesLoader(tenantClients.clientOf(await tenantRow(tenant.id))),
          healthLoader: async (tenant) => healthLoader(tenantClients.clientOf(await tenantRow(tenant.id))),
          concurrency: base.config.GRAPH_MAX_CONCURRENT_TENANTS,
        }
      : undefined,
    // After a Message Center sync: the files of the posts' attachments not kept yet (of the tenant's posts, through its client).
    afterSync: async (source, db, signal, tenant) => {
      // After a tenant's Service Health sync: the post-incident reports Microsoft published and we do not keep yet.
      if (source === 'service_health') {
        if (!tenant || !tenantClients) return;
        const client = tenantClients.clientOf(await tenantRow(tenant.id));
        const log = base.log.child({ tenant: tenant.name });
        // Each service's health now, for the tenant's row; failing to read it never fails the run.
        try {
          await createTenantsRepo(db).setHealthOverview(tenant.id, await client.fetchHealthOverviews({ signal }), base.clock.now());
        } catch (err) {
          if (signal.aborted) throw err;
          log.warn({ err: (err as Error).message }, 'service health overview not read; the last one is kept');
        }
        // The products it licenses (subscribedSkus, Organization.Read.All); without the permission the filter just lacks it.
        try {
          const plans = await client.fetchLicensedPlans({ signal });
          const products = licensedProductsOf(plans, await licenceOverrides(db));
          await createTenantsRepo(db).setLicences(tenant.id, { plans, products }, base.clock.now());
        } catch (err) {
          if (signal.aborted) throw err;
          const forbidden = err instanceof FeedHttpError && (err.status === 401 || err.status === 403);
          const error = forbidden
            ? 'Licences not readable: grant the app Organization.Read.All (application) to filter by the products the tenant licenses.'
            : `Licences not read: ${(err as Error).message}`;
          await createTenantsRepo(db).setLicences(tenant.id, { error }, base.clock.now());
          log.warn({ err: (err as Error).message }, 'licences not read; the last ones are kept');
        }
        await downloadMissingReports({ db, client, log, now: () => base.clock.now(), tenantId: tenant.id }, { signal });
        return;
      }
      if (source !== 'message_center') return;
      const client = tenant && tenantClients ? tenantClients.clientOf(await tenantRow(tenant.id)) : clients.graph;
      await downloadMissingAttachments({ db, client, log: base.log, now: () => base.clock.now(), tenantId: tenant?.id }, { signal });
    },
  });
}
