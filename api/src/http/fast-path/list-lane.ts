import fresh from 'fresh';
import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { endpoints, type ItemListQuery } from '@radar/contracts';
import type { AccessLog } from '../access-log.js';
import { readCookie } from '../cookies.js';
import { JSON_CONTENT_TYPE } from '../endpoints.js';
import type { SecurityHeaders } from '../security-headers.js';
import type { Clock } from '../../lib/clock.js';
import { answerCopyFor, type ListAnswer, type ListAnswers } from '../../features/items/list-answers.js';
import { LruCache } from '../../lib/lru-cache.js';

export interface ListLaneDeps {
  answers: ListAnswers;
  clock: Clock;
  access: AccessLog;
  securityHeaders: SecurityHeaders;
  /** The session cookie's name: a request that carries it goes through Express (the session decides the audience). */
  sessionCookieName: string;
  /** True once a graceful shutdown began: answers close their connection, as every other answer does then. */
  isStopping?: () => boolean;
  /** Checks an answer against the endpoint's contract before it is sent (tests, as mountEndpoints does). */
  check?: (body: Buffer) => void;
  /**
   * Counts an answer that must be made against the guest's cache-miss budget, as the route does (MissBudget.chargeGuest);
   * throws past it, and the request goes to Express for its 429.
   */
  chargeMiss: (req: IncomingMessage) => Promise<void>;
}

/** A guest's audience: the rows as the public sees them, no triage, no relevance (what the route gives a guest). */
const GUEST = { includeNotes: false, triage: false, relevance: false } as const;

/** Answers the request, or hands it untouched to `fallback` (Express). */
export type ListLane = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => void;

const LIST_PATH = '/api/unified/items';
const LIST_QUERY = endpoints.items.list.query;

/**
 * The query of a request the lane answers, by its text (null: one it hands to Express), parsed once per text: the
 * dashboard's lists and pages come again and again. Frozen, so the answers cache keeps what it derives from it with
 * the object (its JSON, whether its view moves with the time) instead of working it out on every request.
 */
const laneQueries = new LruCache<Readonly<ItemListQuery> | null>({ entries: 2000, weight: 2000 });

function laneQuery(search: string): Readonly<ItemListQuery> | null {
  const known = laneQueries.get(search);
  if (known !== undefined) return known;
  const query = LIST_QUERY.safeParse(querystring.parse(search));
  const q = query.success ? query.data : null;
  const ours = q && !(q.sinceLastVisit || q.triage || q.relevance || q.sortField === 'due' || q.sortField === 'relevance') ? q : null;
  if (ours) for (const value of Object.values(ours)) if (Array.isArray(value)) Object.freeze(value);
  const kept = ours ? Object.freeze(ours) : null;
  laneQueries.set(search, kept);
  return kept;
}

/**
 * The item list's fast lane: an anonymous GET (or HEAD) of /api/unified/items is answered in front of Express, from
 * the list's answer cache or made there (a new search, a page not asked before). The dashboard's first request and
 * every public reader's paging, filtering and searching are such requests; the list is the product's busiest answer.
 *
 * Most of what a cached answer costs through Express is the framework (routing, prototypes, the middleware chain,
 * res.send's checks), not the answer: this lane writes the same answer with the same headers in about half the CPU
 * (docs/benchmarks.md, "Figures behind the code"). It is the same response in
 * every respect — status, headers, body, ETag/304, brotli/gzip copies, access line, X-Request-Id, security headers,
 * `Connection: close` during a shutdown — and a differential test (list-lane.test.ts) sends each request through
 * both ways and compares them. An answer it must make is counted against the guest's cache-miss budget first, by the
 * network Express would see (`chargeMiss`), as the route counts it; past the budget the request goes to Express for
 * its 429, which takes that count rather than counting again (MissBudget.chargeGuest).
 *
 * Anything it does not handle goes to Express untouched, before the lane has set a header: a request with a session
 * cookie or an Authorization header (the audience and the token checks are the session middleware's), a path in
 * another spelling (Express matches any case and a trailing slash), a query the contract refuses (the 400 names the
 * field), `sinceLastVisit`, a triage view, the due-date order and relevance's filter and order (each needs a signed-in
 * user), any method but GET and HEAD. A request whose answer fails to load (a database error) or is refused by the
 * budget goes to Express too, for its error answer, keeping the request id and access line begun here.
 */
export function createListLane(deps: ListLaneDeps): ListLane {
  return (req, res, fallback) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(LIST_PATH)) return fallback();
    const search = url.length === LIST_PATH.length ? '' : url[LIST_PATH.length] === '?' ? url.slice(LIST_PATH.length + 1) : undefined;
    if (search === undefined || req.headers.authorization !== undefined || readCookie(req, deps.sessionCookieName) !== undefined) return fallback();
    const q = laneQuery(search);
    if (!q) return fallback();
    // From here the request is the lane's: its id and access line start now, so the line's time and an abort while
    // the answer loads are logged as Express would. A fallback below keeps them (the access middleware sees req.id).
    req.id = deps.access.begin(req, res);
    // Cached, or made here (counted against the guest's cache-miss budget first, as the route counts it).
    deps.answers
      .answer(q, deps.clock.now(), GUEST, () => deps.chargeMiss(req))
      .then(
        (answer) => {
          try {
            deps.check?.(answer.body);
          } catch {
            return fallback();
          }
          send(deps, req, res, answer);
        },
        () => fallback(),
      );
  };
}

/** Writes the answer as mountEndpoints' runHandler (and res.send for a 304) would, after the same middleware. */
function send(deps: ListLaneDeps, req: IncomingMessage, res: ServerResponse, answer: ListAnswer): void {
  for (const [name, value] of deps.securityHeaders) res.setHeader(name, value);
  if (deps.isStopping?.()) res.setHeader('Connection', 'close');
  res.setHeader('Cache-Control', 'no-store');
  const copy = answerCopyFor(answer, req);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', copy.etag);
  if (fresh(req.headers, { etag: copy.etag })) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  if (copy.encoding) res.setHeader('Content-Encoding', copy.encoding);
  res.setHeader('Content-Length', copy.body.length);
  res.end(req.method === 'HEAD' ? undefined : copy.body);
}
