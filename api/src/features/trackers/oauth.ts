import crypto from 'node:crypto';
import type { JiraSettings, ServiceNowSettings } from '@radar/contracts';
import { seal, unseal } from '../../lib/sealed-box.js';
import { TrackerError, trackerMessage, trackerRequest, type TrackerHttpOptions } from './tracker-http.js';

/** The scopes a Jira OAuth 2.0 (3LO) app is asked for: read and write issues, find users, and a refresh token. */
export const JIRA_OAUTH_SCOPES = ['read:jira-work', 'write:jira-work', 'read:jira-user', 'offline_access'];
/** How long the consent page's state is accepted. */
export const OAUTH_STATE_MS = 10 * 60 * 1000;
/** An access token is renewed this long before it expires. */
const RENEW_EARLY_MS = 60 * 1000;

/** What an authorization gave, sealed at rest in `integrations.oauth_sealed` (the trackers table keeps its SQL name). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** The Jira site's id at Atlassian's gateway (calls go to `{ATLASSIAN_API_URL}/ex/jira/{cloudId}`). */
  cloudId: string | null;
  authorizedBy: string | null;
  authorizedAt: string;
}

/** Where a tracker's OAuth 2.0 authorization-code flow happens. */
export interface OAuthServer {
  /** The consent page. */
  authorizeUrl: string;
  tokenUrl: string;
  /** Atlassian takes JSON, ServiceNow a form. */
  tokenBody: 'json' | 'form';
  /** Extra parameters of the consent page (Atlassian's audience, scopes and prompt). */
  authorizeParams: Record<string, string>;
  /** Atlassian's hosts are the operator's configuration; a ServiceNow instance is an admin's entry and passes the guard. */
  guarded: boolean;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function oauthServerOf(
  kind: 'jira' | 'servicenow',
  settings: Pick<JiraSettings, 'baseUrl'> | Pick<ServiceNowSettings, 'baseUrl'>,
  config: { ATLASSIAN_AUTH_URL: string },
): OAuthServer {
  if (kind === 'jira') {
    const auth = trimSlash(config.ATLASSIAN_AUTH_URL);
    return {
      authorizeUrl: `${auth}/authorize`,
      tokenUrl: `${auth}/oauth/token`,
      tokenBody: 'json',
      authorizeParams: { audience: 'api.atlassian.com', scope: JIRA_OAUTH_SCOPES.join(' '), prompt: 'consent' },
      guarded: false,
    };
  }
  return {
    authorizeUrl: `${settings.baseUrl}/oauth_auth.do`,
    tokenUrl: `${settings.baseUrl}/oauth_token.do`,
    tokenBody: 'form',
    authorizeParams: {},
    guarded: true,
  };
}

/** The scopes a Planner tracker that acts for an admin asks of Graph, beside a refresh token. */
export const PLANNER_DELEGATED_SCOPES = ['Tasks.ReadWrite', 'User.ReadBasic.All'];

/** Entra's authorization-code flow in the tenant, with the tenant's app: Planner's delegated sign-in. */
export function plannerServerOf(tenant: { authorityUrl: string; graphUrl: string; directoryId: string }): OAuthServer {
  const authority = `${trimSlash(tenant.authorityUrl)}/${encodeURIComponent(tenant.directoryId)}/oauth2/v2.0`;
  const graph = trimSlash(tenant.graphUrl);
  return {
    authorizeUrl: `${authority}/authorize`,
    tokenUrl: `${authority}/token`,
    tokenBody: 'form',
    authorizeParams: { scope: [...PLANNER_DELEGATED_SCOPES.map((s) => `${graph}/${s}`), 'offline_access'].join(' '), prompt: 'select_account' },
    guarded: false,
  };
}

/**
 * PKCE (RFC 7636, S256): a random code verifier kept on the server and its SHA-256 challenge sent to the consent
 * page, so a code caught on its way back cannot be traded by anyone without the verifier.
 */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** The consent page's address for this tracker, with the PKCE challenge. */
export function consentUrl(server: OAuthServer, clientId: string, redirectUri: string, state: string, codeChallenge: string): string {
  const query = new URLSearchParams({
    ...server.authorizeParams,
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
    response_type: 'code',
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${server.authorizeUrl}?${query.toString()}`;
}

/** What a state is stored under: its SHA-256, so the table never holds a state that would pass the callback. */
export const stateHashOf = (state: string) => crypto.createHash('sha256').update(state).digest('hex');

/** The answer to a callback whose state was already used (a replay, or the browser sent it twice). */
export const STATE_USED = 'This authorization answer was already used: start it again';

/** The state of one consent: sealed (so it cannot be forged or read), bound to the tracker, the admin and a time. */
export function sealState(key: Buffer, trackerId: number, userId: number, now: number): string {
  return seal(key, JSON.stringify({ i: trackerId, u: userId, x: now + OAUTH_STATE_MS, n: crypto.randomBytes(8).toString('hex') }));
}

/** The tracker a state names, when it is this installation's, this admin's and not expired; else why not. */
export function openState(key: Buffer, state: string, userId: number, now: number): { trackerId: number } | string {
  let parsed: { i?: number; u?: number; x?: number };
  try {
    parsed = JSON.parse(unseal(key, state)) as typeof parsed;
  } catch {
    return 'The authorization answer was not one this installation asked for';
  }
  if (parsed.u !== userId) return 'The authorization was started by another admin: start it again';
  if (typeof parsed.x !== 'number' || parsed.x < now) return 'The authorization took longer than 10 minutes: start it again';
  if (typeof parsed.i !== 'number') return 'The authorization answer was not one this installation asked for';
  return { trackerId: parsed.i };
}

type TokenAnswer = { access_token?: string; refresh_token?: string; expires_in?: number | string };

/** One request to the token endpoint; an answer without a token is a refusal in the server's words. */
async function tokenRequest(server: OAuthServer, http: TrackerHttpOptions, fields: Record<string, string>, what: string) {
  const body = server.tokenBody === 'json' ? fields : new URLSearchParams(fields);
  const res = await trackerRequest({ ...http, guard: server.guarded ? http.guard : null }, 'POST', server.tokenUrl, {}, body);
  let parsed: TokenAnswer = {};
  try {
    parsed = JSON.parse(res.text) as TokenAnswer;
  } catch {
    // Not JSON: the status says what happened.
  }
  if (res.status === 200 && parsed.access_token) return { parsed, latencyMs: res.latencyMs };
  const retry = res.status === 429 || res.status >= 500;
  const said = trackerMessage(res.text);
  throw new TrackerError(`${what}: ${said || `HTTP ${res.status}`}`, res.status, retry, res.retryAfter, res.latencyMs, res.text.slice(0, 500));
}

function tokensOf(parsed: TokenAnswer, now: number, previous: Partial<OAuthTokens> = {}): OAuthTokens {
  const lifetime = Number(parsed.expires_in ?? 3600) * 1000;
  return {
    accessToken: parsed.access_token ?? '',
    // Atlassian rotates refresh tokens (each refresh answers a new one); ServiceNow may keep the old one.
    refreshToken: parsed.refresh_token ?? previous.refreshToken ?? null,
    expiresAt: now + (Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 3600_000),
    cloudId: previous.cloudId ?? null,
    authorizedBy: previous.authorizedBy ?? null,
    authorizedAt: previous.authorizedAt ?? new Date(now).toISOString(),
  };
}

/** Trades the consent page's code for tokens, proving the PKCE verifier of the consent. */
export async function exchangeCode(
  server: OAuthServer,
  http: TrackerHttpOptions,
  client: { id: string; secret: string },
  code: string,
  redirectUri: string,
  codeVerifier: string,
  now: number,
): Promise<OAuthTokens> {
  const { parsed } = await tokenRequest(
    server,
    http,
    {
      grant_type: 'authorization_code',
      client_id: client.id,
      client_secret: client.secret,
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    },
    'Trading the authorization code',
  );
  return tokensOf(parsed, now);
}

/**
 * A new access token from the refresh token. A refusal (400/401: the refresh token expired, was revoked or was already
 * used) is final: the admin must authorize again.
 */
export async function refreshTokens(
  server: OAuthServer,
  http: TrackerHttpOptions,
  client: { id: string; secret: string },
  tokens: OAuthTokens,
  now: number,
): Promise<OAuthTokens> {
  if (!tokens.refreshToken) throw new TrackerError('The authorization has expired and gave no refresh token: authorize again in Admin → Trackers', null, false);
  try {
    const { parsed } = await tokenRequest(
      server,
      http,
      { grant_type: 'refresh_token', client_id: client.id, client_secret: client.secret, refresh_token: tokens.refreshToken },
      'The authorization was refused when renewed',
    );
    return tokensOf(parsed, now, tokens);
  } catch (err) {
    if (err instanceof TrackerError && !err.retry && err.status !== null) {
      throw new TrackerError(`${err.message.replace(/\.$/, '')}. Authorize again in Admin → Trackers`, err.status, false, null, err.latencyMs, err.response);
    }
    throw err;
  }
}

/** Whether the access token is still good for a call. */
export const fresh = (tokens: OAuthTokens, now: number) => tokens.expiresAt - RENEW_EARLY_MS > now;

export const sealTokens = (key: Buffer, tokens: OAuthTokens) => seal(key, JSON.stringify(tokens));
export function openTokens(key: Buffer, sealed: string | null): OAuthTokens | null {
  if (!sealed) return null;
  try {
    return JSON.parse(unseal(key, sealed)) as OAuthTokens;
  } catch {
    return null;
  }
}

/**
 * The Jira site the authorization reaches (Atlassian's accessible resources), by the tracker's site URL, and who
 * authorized (`/myself` through the gateway).
 */
export async function jiraSiteOf(
  http: TrackerHttpOptions,
  apiUrl: string,
  accessToken: string,
  siteUrl: string,
): Promise<{ cloudId: string; authorizedBy: string | null }> {
  const api = trimSlash(apiUrl);
  const auth = { authorization: `Bearer ${accessToken}` };
  const res = await trackerRequest({ ...http, guard: null }, 'GET', `${api}/oauth/token/accessible-resources`, auth);
  if (res.status !== 200) {
    throw new TrackerError(`Listing the sites the authorization reaches: ${trackerMessage(res.text) || `HTTP ${res.status}`}`, res.status, res.status >= 500);
  }
  const sites = JSON.parse(res.text) as { id?: string; url?: string; name?: string }[];
  const site = sites.find((s) => s.url && trimSlash(s.url).toLowerCase() === trimSlash(siteUrl).toLowerCase());
  if (!site?.id) {
    const reached = sites.map((s) => s.url).filter(Boolean);
    throw new TrackerError(
      `The account that authorized cannot reach ${siteUrl}${reached.length ? ` (it reaches ${reached.join(', ')})` : ''}: authorize with an account of that site`,
      null,
      false,
    );
  }
  const me = await trackerRequest({ ...http, guard: null }, 'GET', `${api}/ex/jira/${encodeURIComponent(site.id)}/rest/api/3/myself`, auth);
  const who = me.status === 200 ? (JSON.parse(me.text) as { displayName?: string; emailAddress?: string }) : {};
  return { cloudId: site.id, authorizedBy: who.displayName ?? who.emailAddress ?? null };
}

/** Who a delegated Graph token acts for (`/me`), by name. */
export async function graphUserOf(http: TrackerHttpOptions, graphUrl: string, accessToken: string): Promise<string | null> {
  const res = await trackerRequest({ ...http, guard: null }, 'GET', `${trimSlash(graphUrl)}/v1.0/me?$select=displayName,mail`, {
    authorization: `Bearer ${accessToken}`,
  });
  if (res.status !== 200) return null;
  const me = JSON.parse(res.text) as { displayName?: string; mail?: string };
  return me.displayName ?? me.mail ?? null;
}
