import type { Clock } from '../lib/clock.js';
import { FeedFormatError, FeedHttpError, NotConfiguredError } from './errors.js';
import { fetchTextWithRetry, type RequestControl, type RetryOptions } from './http.js';
import { normalizeMessages, parseJsonText } from './normalize.js';
import { describeIssues, rawGraphPage, tokenResponse, type RawGraphMessage } from './raw-schemas.js';
import type { MessageRecord } from './types.js';

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
  /** Every active message, all pages; throws NotConfiguredError without credentials, another FeedError on failure. */
  fetchAll(control?: RequestControl): Promise<MessageRecord[]>;
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
    const tokenUrl = `${trimSlash(options.authorityUrl)}/${encodeURIComponent(tenantId!)}/oauth2/v2.0/token`;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId!,
      client_secret: clientSecret!,
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

  async function getPage(url: string, control: RequestControl) {
    const send = async () =>
      fetchTextWithRetry(url, { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${await token(control)}` } }, options, control);
    let response;
    try {
      response = await send();
    } catch (err) {
      // A token revoked or expired early: fetch a fresh one once before giving up.
      if (!(err instanceof FeedHttpError && err.status === 401)) throw err;
      cached = null;
      response = await send();
    }
    const json = parseJsonText(response.text, 'Graph page') as { value?: unknown[] };
    const parsed = rawGraphPage.safeParse(json);
    if (!parsed.success) throw new FeedFormatError(`Graph page refused: ${describeIssues(parsed.error)}`);
    return { ...parsed.data, originals: json.value as unknown[] };
  }

  return {
    configured,
    async fetchAll(control = {}) {
      if (!configured) {
        throw new NotConfiguredError('Message Center sync is not configured: set GRAPH_TENANT_ID, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET');
      }
      const maxPages = options.maxPages ?? 500;
      const messages: RawGraphMessage[] = [];
      const originals: unknown[] = [];
      const visited = new Set<string>();
      let next: string | null | undefined = `${apiUrl}/v1.0/admin/serviceAnnouncement/messages`;
      while (next) {
        // The bearer token must only ever go to the Graph host we were configured with.
        if (new URL(next).origin !== apiOrigin) throw new FeedFormatError(`Graph nextLink points to another host: ${new URL(next).origin}`);
        if (visited.has(next) || visited.size >= maxPages) throw new FeedFormatError('Graph paging does not end (nextLink repeats or too many pages)');
        visited.add(next);
        const page = await getPage(next, control);
        messages.push(...page.value);
        originals.push(...page.originals);
        next = page['@odata.nextLink'];
      }
      return normalizeMessages(messages, originals);
    },
  };
}
