import fresh from 'fresh';
import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { endpoints } from '@radar/contracts';
import type { AccessLog } from '../access-log.js';
import { readCookie } from '../cookies.js';
import { JSON_CONTENT_TYPE } from '../endpoints.js';
import type { SecurityHeaders } from '../security-headers.js';
import type { Clock } from '../../lib/clock.js';
import { answerCopyFor, rememberVersionRead, type ListAnswer, type ListAnswers } from '../../features/items/list-answers.js';

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
}

/** Answers the request, or hands it untouched to `fallback` (Express). */
export type ListLane = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => void;

const LIST_PATH = '/api/unified/items';
const LIST_QUERY = endpoints.items.list.query;

/**
 * The item list's fast lane: an anonymous GET (or HEAD) of /api/unified/items is answered straight from the list's
 * answer cache, in front of Express. The dashboard's first request and every public reader's paging and filtering are
 * such requests; the list is the product's busiest answer.
 *
 * Most of what a cached answer costs through Express is the framework (routing, prototypes, the middleware chain,
 * res.send's checks), not the answer: this lane writes the same answer with the same headers in about half the CPU
 * (docs/benchmarks.md, "Figures behind the code"). It is the same response in
 * every respect — status, headers, body, ETag/304, brotli/gzip copies, access line, X-Request-Id, security headers,
 * `Connection: close` during a shutdown — and a differential test (list-lane.test.ts) sends each request through
 * both ways and compares them.
 *
 * Anything it does not handle goes to Express untouched, before the lane has set a header: a request with a session
 * cookie or an Authorization header (the audience and the token checks are the session middleware's), a path in
 * another spelling (Express matches any case and a trailing slash), a query the contract refuses (the 400 names the
 * field), `sinceLastVisit`, a triage view, the due-date order and relevance's filter and order (each needs a signed-in
 * user), any method but GET and HEAD. A request whose answer fails to load
 * (a database error) goes to Express too, for its error answer, keeping the request id and access line begun here.
 */
export function createListLane(deps: ListLaneDeps): ListLane {
  return (req, res, fallback) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(LIST_PATH)) return fallback();
    const search = url.length === LIST_PATH.length ? '' : url[LIST_PATH.length] === '?' ? url.slice(LIST_PATH.length + 1) : undefined;
    if (search === undefined || req.headers.authorization !== undefined || readCookie(req, deps.sessionCookieName) !== undefined) return fallback();
    const query = LIST_QUERY.safeParse(querystring.parse(search));
    const q = query.success ? query.data : null;
    if (!q || q.sinceLastVisit || q.triage || q.relevance || q.sortField === 'due' || q.sortField === 'relevance') return fallback();
    // From here the request is the lane's: its id and access line start now, so the line's time and an abort while
    // the answer loads are logged as Express would. A fallback below keeps them (the access middleware sees req.id).
    req.id = deps.access.begin(req, res);
    // Only answers already made: one that must be computed goes through Express, which counts it against the
    // client's cache-miss budget.
    deps.answers.cached(q, deps.clock.now(), { includeNotes: false, triage: false }).then(
      ({ answer, version }) => {
        if (!answer) {
          rememberVersionRead(req, version);
          return fallback();
        }
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
