import type { MessageAttachment } from '@radar/contracts';
import type { Clock } from '../lib/clock.js';
import { FeedAbortedError, FeedError, FeedFormatError, FeedHttpError, NotConfiguredError } from './errors.js';
import { fetchBytesWithRetry, fetchStreamWithRetry, fetchTextWithRetry, shortUrl, type RequestControl, type RetryOptions } from './http.js';
import { normalizeMessages, parseJsonText } from './normalize.js';
import { normalizeHealthIssues } from './normalize-health.js';
import {
  describeIssues,
  rawAttachmentList,
  rawGraphPage,
  rawHealthOverviews,
  rawSubscribedSkus,
  rawHealthPage,
  tokenResponse,
  type RawGraphMessage,
  type RawHealthIssue,
} from './raw-schemas.js';
import type { HealthRecord, MessageRecord } from './types.js';

export interface GraphMessagesOptions extends RetryOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** GRAPH_AUTHORITY_URL, e.g. https://login.microsoftonline.com (sovereign clouds and tests point elsewhere). */
  authorityUrl: string;
  /** GRAPH_API_URL, e.g. https://graph.microsoft.com. */
  apiUrl: string;
  clock: Clock;
  /** A loop guard: Graph returns ~1,000 messages in 100-item pages. */
  maxPages?: number;
}

export interface GraphMessagesClient {
  readonly configured: boolean;
  /**
   * Every active message, all pages, with the attachments listed of those that have some; throws NotConfiguredError
   * without credentials, another FeedError on failure.
   */
  fetchAll(control?: RequestControl): Promise<MessageRecord[]>;
  /** Each service's health now (`/healthOverviews`), by service name. */
  fetchHealthOverviews(control?: RequestControl): Promise<{ service: string; status: string }[]>;
  /**
   * The service plans the tenant can use (`/subscribedSkus`): of subscriptions that are enabled (or in their grace
   * period), the plans provisioned; sorted, once each.
   */
  fetchLicensedPlans(control?: RequestControl): Promise<string[]>;
  /** Every Service Health issue the tenant lists (`/issues`, all pages, each with its posts). */
  fetchHealthIssues(control?: RequestControl): Promise<HealthRecord[]>;
  /**
   * An issue's post-incident report (`/issues/{id}/incidentReport`), refused past `maxBytes`; null when Graph has
   * none (404).
   */
  downloadIncidentReport(issueId: string, maxBytes: number, control?: RequestControl): Promise<{ body: Buffer; contentType: string | null } | null>;
  /**
   * A usage report (`/reports/…`, `/copilot/reports/…`) as Graph sends it: the CSV or JSON text and its media type.
   * Graph answers most with a 302 to a pre-authenticated download URL valid for minutes, which is followed without the
   * token (the token only ever goes to Graph); some answer the report directly. Refused past `maxBytes`.
   */
  downloadReport(path: string, maxBytes: number, control?: RequestControl): Promise<{ text: string; contentType: string | null }>;
  /**
   * A usage report too large to hold (one row per user): as `downloadReport`, but its body goes to `read` as it arrives
   * and is never held whole; refused past `maxBytes`, each attempt cut off after `timeoutMs` (the client's by default).
   */
  streamReport<T>(
    path: string,
    opts: { maxBytes: number; timeoutMs?: number },
    read: (body: AsyncIterable<Buffer>, contentType: string | null) => Promise<T>,
    control?: RequestControl,
  ): Promise<T>;
  /** One attachment's file (`/messages/{id}/attachments/{attachmentId}/content`), refused past `maxBytes`. */
  downloadAttachment(
    messageId: string,
    attachmentId: string,
    maxBytes: number,
    control?: RequestControl,
  ): Promise<{ body: Buffer; contentType: string | null }>;
}

/** Renew this long before the token's stated expiry, so a token never dies mid-paging. */
const TOKEN_EARLY_RENEW_MS = 5 * 60 * 1000;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createGraphMessagesClient(options: GraphMessagesOptions): GraphMessagesClient {
  const { tenantId, clientId, clientSecret } = options;
  const configured = Boolean(tenantId && clientId && clientSecret);
  const apiUrl = trimSlash(options.apiUrl);
  const apiOrigin = new URL(apiUrl).origin;
  let cached: { token: string; renewAt: number } | null = null;

  async function token(control: RequestControl): Promise<string> {
    const now = options.clock.now().getTime();
    if (cached && now < cached.renewAt) return cached.token;
    const tokenUrl = `${trimSlash(options.authorityUrl)}/${encodeURIComponent(tenantId ?? '')}/oauth2/v2.0/token`;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId ?? '',
      client_secret: clientSecret ?? '',
      scope: `${apiUrl}/.default`,
    });
    const { text } = await fetchTextWithRetry(
      tokenUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      options,
      control,
    );
    const parsed = tokenResponse.safeParse(parseJsonText(text, 'token response'));
    if (!parsed.success) throw new FeedFormatError(`token response refused: ${describeIssues(parsed.error)}`);
    const lifetimeMs = parsed.data.expires_in * 1000;
    cached = { token: parsed.data.access_token, renewAt: now + Math.max(lifetimeMs / 2, lifetimeMs - TOKEN_EARLY_RENEW_MS) };
    return cached.token;
  }

  /** A Graph call with the token; a 401 (a token revoked or expired early) fetches a fresh one and tries once more. */
  async function withToken<T>(send: (bearer: string) => Promise<T>, control: RequestControl): Promise<T> {
    try {
      return await send(await token(control));
    } catch (err) {
      if (!(err instanceof FeedHttpError && err.status === 401)) throw err;
      cached = null;
      return send(await token(control));
    }
  }

  async function getJson(url: string, control: RequestControl, what: string): Promise<unknown> {
    const response = await withToken(
      (bearer) => fetchTextWithRetry(url, { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${bearer}` } }, options, control),
      control,
    );
    return parseJsonText(response.text, what);
  }

  const messageUrl = (messageId: string) => `${apiUrl}/v1.0/admin/serviceAnnouncement/messages/${encodeURIComponent(messageId)}`;

  /** The attachments a post lists; a post that says it has some but lists none is taken at its list's word. */
  async function attachmentsOf(messageId: string, control: RequestControl): Promise<MessageAttachment[]> {
    const parsed = rawAttachmentList.safeParse(await getJson(`${messageUrl(messageId)}/attachments`, control, 'Graph attachment list'));
    if (!parsed.success) throw new FeedFormatError(`Graph attachment list of ${messageId} refused: ${describeIssues(parsed.error)}`);
    return parsed.data.value.map((a) => ({
      id: a.id,
      name: a.name?.trim() || a.id,
      contentType: a.contentType ?? null,
      size: a.size ?? null,
      lastModified: a.lastModifiedDateTime ?? null,
    }));
  }

  async function getPage(url: string, control: RequestControl) {
    const json = (await getJson(url, control, 'Graph page')) as { value?: unknown[] };
    const parsed = rawGraphPage.safeParse(json);
    if (!parsed.success) throw new FeedFormatError(`Graph page refused: ${describeIssues(parsed.error)}`);
    return { ...parsed.data, originals: json.value as unknown[] };
  }

  /** Follows @odata.nextLink from `first`, only ever on the configured Graph host, at most `maxPages` pages. */
  async function allPages<T>(
    first: string,
    control: RequestControl,
    read: (url: string) => Promise<{ value: T[]; originals: unknown[]; next: string | null | undefined }>,
  ) {
    const maxPages = options.maxPages ?? 500;
    const values: T[] = [];
    const originals: unknown[] = [];
    const visited = new Set<string>();
    let next: string | null | undefined = first;
    while (next) {
      // The bearer token must only ever go to the Graph host we were configured with.
      if (new URL(next).origin !== apiOrigin) throw new FeedFormatError(`Graph nextLink points to another host: ${new URL(next).origin}`);
      if (visited.has(next) || visited.size >= maxPages) throw new FeedFormatError('Graph paging does not end (nextLink repeats or too many pages)');
      visited.add(next);
      const page = await read(next);
      values.push(...page.value);
      originals.push(...page.originals);
      next = page.next;
    }
    return { values, originals };
  }

  async function getHealthPage(url: string, control: RequestControl) {
    const json = (await getJson(url, control, 'Graph Service Health page')) as { value?: unknown[] };
    const parsed = rawHealthPage.safeParse(json);
    if (!parsed.success) throw new FeedFormatError(`Graph Service Health page refused: ${describeIssues(parsed.error)}`);
    return { value: parsed.data.value, originals: json.value as unknown[], next: parsed.data['@odata.nextLink'] };
  }

  return {
    configured,
    async fetchAll(control = {}) {
      if (!configured) {
        throw new NotConfiguredError('Message Center sync is not configured: set GRAPH_TENANT_ID, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET');
      }
      const { values: messages, originals } = await allPages<RawGraphMessage>(`${apiUrl}/v1.0/admin/serviceAnnouncement/messages`, control, async (url) => {
        const page = await getPage(url, control);
        return { value: page.value, originals: page.originals, next: page['@odata.nextLink'] };
      });
      const records = normalizeMessages(messages, originals);
      for (const record of records) {
        if (!record.hasAttachments) continue;
        try {
          record.attachments = await attachmentsOf(record.messageId, control);
          record.attachmentsUnknown = false;
        } catch (err) {
          // One post's list failing must not stop the sync of every post: its stored list is kept this time.
          if (!(err instanceof FeedError) || err instanceof FeedAbortedError) throw err;
          options.log?.warn({ message: record.messageId, err: err.message }, 'attachment list not read; the stored one is kept');
          record.attachmentsUnknown = true;
        }
      }
      return records;
    },
    async fetchHealthIssues(control = {}) {
      if (!configured) throw new NotConfiguredError('Service Health sync is not configured: the tenant has no credentials');
      const { values, originals } = await allPages<RawHealthIssue>(`${apiUrl}/v1.0/admin/serviceAnnouncement/issues`, control, (url) =>
        getHealthPage(url, control),
      );
      return normalizeHealthIssues(values, originals);
    },
    async fetchHealthOverviews(control = {}) {
      if (!configured) throw new NotConfiguredError('Service Health is not configured');
      const { values } = await allPages<{ service: string; status: string }>(
        `${apiUrl}/v1.0/admin/serviceAnnouncement/healthOverviews`,
        control,
        async (url) => {
          const json = await getJson(url, control, 'Graph health overview');
          const parsed = rawHealthOverviews.safeParse(json);
          if (!parsed.success) throw new FeedFormatError(`Graph health overview refused: ${describeIssues(parsed.error)}`);
          return { value: parsed.data.value.map((v) => ({ service: v.service, status: v.status })), originals: [], next: parsed.data['@odata.nextLink'] };
        },
      );
      return values.sort((a, b) => a.service.localeCompare(b.service));
    },
    async fetchLicensedPlans(control = {}) {
      if (!configured) throw new NotConfiguredError('Graph is not configured');
      const { values } = await allPages<{ plan: string }>(`${apiUrl}/v1.0/subscribedSkus`, control, async (url) => {
        const json = await getJson(url, control, 'Graph subscribed SKUs');
        const parsed = rawSubscribedSkus.safeParse(json);
        if (!parsed.success) throw new FeedFormatError(`Graph subscribed SKUs refused: ${describeIssues(parsed.error)}`);
        const usable = parsed.data.value.filter((sku) => ['Enabled', 'Warning'].includes(sku.capabilityStatus ?? 'Enabled'));
        const plans = usable.flatMap((sku) =>
          sku.servicePlans
            .filter((p) => ['Success', 'PendingActivation', 'PendingProvisioning'].includes(p.provisioningStatus ?? 'Success'))
            .map((p) => ({ plan: p.servicePlanName })),
        );
        return { value: plans, originals: [], next: parsed.data['@odata.nextLink'] };
      });
      return [...new Set(values.map((v) => v.plan))].sort();
    },
    async downloadIncidentReport(issueId, maxBytes, control = {}) {
      if (!configured) throw new NotConfiguredError('Service Health is not configured');
      const url = `${apiUrl}/v1.0/admin/serviceAnnouncement/issues/${encodeURIComponent(issueId)}/incidentReport`;
      try {
        const response = await withToken(
          (bearer) => fetchBytesWithRetry(url, { method: 'GET', headers: { authorization: `Bearer ${bearer}` } }, options, maxBytes, control),
          control,
        );
        return { body: response.body, contentType: response.headers.contentType };
      } catch (err) {
        if (err instanceof FeedHttpError && err.status === 404) return null;
        throw err;
      }
    },
    async downloadReport(path, maxBytes, control = {}) {
      if (!configured) throw new NotConfiguredError('Graph is not configured');
      const asked = await withToken(
        (bearer) =>
          fetchBytesWithRetry(
            `${apiUrl}${path}`,
            { method: 'GET', redirect: 'manual', headers: { authorization: `Bearer ${bearer}` } },
            options,
            maxBytes,
            control,
          ),
        control,
      );
      let report = asked;
      if (asked.status >= 300 && asked.status < 400) {
        if (!asked.headers.location) throw new FeedFormatError(`${shortUrl(path)} redirected without a Location`);
        const download = new URL(asked.headers.location, apiUrl).toString();
        report = await fetchBytesWithRetry(download, { method: 'GET', redirect: 'manual' }, options, maxBytes, control);
        if (report.status >= 300) throw new FeedFormatError(`the download of ${shortUrl(path)} redirected again`);
      }
      return { text: report.body.toString('utf8'), contentType: report.headers.contentType };
    },
    async streamReport(path, opts, read, control = {}) {
      if (!configured) throw new NotConfiguredError('Graph is not configured');
      const retry = { ...options, timeoutMs: opts.timeoutMs ?? options.timeoutMs };
      const asked = await withToken(
        (bearer) =>
          fetchStreamWithRetry(
            `${apiUrl}${path}`,
            { method: 'GET', redirect: 'manual', headers: { authorization: `Bearer ${bearer}` } },
            retry,
            opts.maxBytes,
            read,
            control,
          ),
        control,
      );
      if (asked.body) return asked.body.value;
      if (!asked.headers.location) throw new FeedFormatError(`${shortUrl(path)} redirected without a Location`);
      // The download URL is pre-authenticated: the token only ever goes to Graph.
      const download = new URL(asked.headers.location, apiUrl).toString();
      const report = await fetchStreamWithRetry(download, { method: 'GET', redirect: 'manual' }, retry, opts.maxBytes, read, control);
      if (!report.body) throw new FeedFormatError(`the download of ${shortUrl(path)} redirected again`);
      return report.body.value;
    },
    async downloadAttachment(messageId, attachmentId, maxBytes, control = {}) {
      if (!configured) throw new NotConfiguredError('Message Center is not configured');
      const url = `${messageUrl(messageId)}/attachments/${encodeURIComponent(attachmentId)}/content`;
      const response = await withToken(
        (bearer) => fetchBytesWithRetry(url, { method: 'GET', headers: { authorization: `Bearer ${bearer}` } }, options, maxBytes, control),
        control,
      );
      return { body: response.body, contentType: response.headers.contentType };
    },
  };
}
