/**
 * Early GETs: the shell's entry starts the requests the first screen will make (the session lookup, the dashboard's
 * first page, the landing counts) before React and the remotes have loaded, and apiFetch answers the first GET of
 * the same URL with that response instead of asking again. Dependency-free (the shell's entry runs before any shared
 * module exists); the requests live on a window global so the shell's copy of this module and shared-ui's share them.
 */
const PREFETCH_GLOBAL = '__RADAR_PREFETCH__';
/** An early answer nobody took within this long is dropped: a later reader must see fresh data. */
export const PREFETCH_KEEP_MS = 15_000;

export const SESSION_USER_KEY = '/api/auth/session-user';
export const AUTH_USER_KEY = '/api/auth/user';

type Registry = Map<string, Promise<Response>>;

function registry(): Registry {
  const win = window as unknown as Record<string, Registry | undefined>;
  return (win[PREFETCH_GLOBAL] ??= new Map());
}

/** Starts GET `url` as apiFetch would send it (cookies, JSON), unless it is already under way. */
export function prefetchGet(url: string): Promise<Response> {
  const requests = registry();
  const pending = requests.get(url);
  if (pending) return pending;
  const request = fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
  requests.set(url, request);
  const forget = () => {
    if (requests.get(url) === request) requests.delete(url);
  };
  request.catch(forget);
  setTimeout(forget, PREFETCH_KEEP_MS);
  return request;
}

/** The early response for GET `url`, handed out once (a body can be read once). */
export function takePrefetched(url: string): Promise<Response> | undefined {
  const requests = registry();
  const request = requests.get(url);
  requests.delete(url);
  return request;
}

/**
 * The session lookup as useSession makes it: GET /api/auth/session-user, and only when that finds no user,
 * GET /api/auth/user.
 */
export function prefetchSession(): void {
  prefetchGet(SESSION_USER_KEY)
    .then((response) => (response.ok ? response.clone().json() : undefined))
    .then((body: { user?: unknown } | undefined) => {
      if (!body?.user) prefetchGet(AUTH_USER_KEY);
    })
    .catch(() => undefined);
}
