import crypto from 'node:crypto';
import type http from 'node:http';

/**
 * The usage reports of the local Graph (tenant-graph-server.ts), in the shapes Microsoft documents for v1.0:
 * - `GET /v1.0/reports/getOffice365ServicesUserCounts(period='D30')`: a 302 to a download URL on the same server, whose
 *   file is CSV with a UTF-8 byte order mark and a header row; JSON (`value[]`) with `$format=application/json`;
 * - `GET /v1.0/reports/getM365AppUserCounts(period='D30')`: the same, the JSON nesting the days in `userCounts[]`;
 * - `GET /v1.0/reports/getM365AppUserDetail(period='D30')`: the same, one row per user with Yes or No per app and
 *   platform, the file written as it is sent (a tenant of 100,000 users is never one string); JSON in pages of 200
 *   (`@odata.nextLink` with a `$skiptoken`), each user's ticks in `details[]`;
 * - `GET /v1.0/copilot/reports/getMicrosoft365CopilotUserCountSummary(period='D30')`: CSV answered directly (200).
 * Each needs Reports.Read.All (403 without); a tenant's `throttle` with `usage` among its feeds answers 429 first.
 */

/** The apps of the user detail report, as its JSON names them. */
export const DETAIL_APPS = ['outlook', 'word', 'excel', 'powerPoint', 'oneNote', 'teams'] as const;
type DetailApp = (typeof DETAIL_APPS)[number];

/**
 * The user detail report of a tenant of `users` people: per app the users who used it in the period, the first N (a
 * count) or those from `from` to before `to` (a range); `concealed`, the names a tenant that conceals them shows.
 */
export interface FakeAppUsers {
  reportRefreshDate: string;
  reportPeriod?: number;
  users: number;
  apps: Partial<Record<DetailApp, number | [number, number]>>;
  concealed?: boolean;
}

/** A tenant's usage as Graph's JSON names it: the rows of each report (a report the tenant lacks answers no rows). */
export interface FakeUsage {
  services?: Record<string, string | number>[];
  apps?: { reportRefreshDate: string; reportPeriod: number; userCounts: Record<string, string | number>[] }[];
  appUsers?: FakeAppUsers;
  copilot?: Record<string, string | number>[];
}

type Report = 'services' | 'apps' | 'appUsers' | 'copilot';

/** The CSV columns of each report, as Microsoft documents them. */
const COLUMNS: Record<Report, string[]> = {
  services: [
    'Report Refresh Date',
    'Exchange Active',
    'Exchange Inactive',
    'OneDrive Active',
    'OneDrive Inactive',
    'SharePoint Active',
    'SharePoint Inactive',
    'Skype For Business Active',
    'Skype For Business Inactive',
    'Yammer Active',
    'Yammer Inactive',
    'Teams Active',
    'Teams Inactive',
    'Office 365 Active',
    'Office 365 Inactive',
    'Report Period',
  ],
  apps: ['Report Refresh Date', 'Report Period', 'Report Date', 'Outlook', 'Word', 'Excel', 'PowerPoint', 'OneNote', 'Teams'],
  appUsers: [
    'Report Refresh Date',
    'User Principal Name',
    'Last Activation Date',
    'Last Activity Date',
    'Report Period',
    'Windows',
    'Mac',
    'Mobile',
    'Web',
    'Outlook',
    'Word',
    'Excel',
    'PowerPoint',
    'OneNote',
    'Teams',
    ...['Windows', 'Mac', 'Mobile', 'Web'].flatMap((platform) =>
      ['Outlook', 'Word', 'Excel', 'PowerPoint', 'OneNote', 'Teams'].map((app) => `${app} (${platform})`),
    ),
  ],
  copilot: [
    'Report Refresh Date',
    'Report Period',
    'Microsoft Teams Enabled Users',
    'Microsoft Teams Active Users',
    'Word Enabled Users',
    'Word Active Users',
    'Excel Enabled Users',
    'Excel Active Users',
    'Any App Enabled Users',
    'Any App Active Users',
    'Copilot Chat Enabled Users',
    'Copilot Chat Active Users',
  ],
};

const keyOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A tenant's usage: each service's [active, inactive], each day's app counts, the user detail of `appUsers` people
 * (per app the first N of them used it, or a [from, to) range), Copilot's enabled and active users.
 */
export function usageOf(opts: {
  date: string;
  services?: Partial<Record<'exchange' | 'oneDrive' | 'sharePoint' | 'teams' | 'yammer', [number, number]>>;
  apps?: { reportDate: string; outlook: number; word: number; excel: number; powerPoint: number; oneNote: number; teams?: number }[];
  appUsers?: Omit<FakeAppUsers, 'reportRefreshDate'>;
  copilot?: { enabled: number; active: number };
}): FakeUsage {
  const services = Object.entries(opts.services ?? {}).flatMap(([s, [active, inactive]]) => [
    [`${s}Active`, active],
    [`${s}Inactive`, inactive],
  ]);
  return {
    services: opts.services ? [{ reportRefreshDate: opts.date, ...Object.fromEntries(services), skypeForBusinessActive: '', reportPeriod: 30 }] : [],
    apps: opts.apps ? [{ reportRefreshDate: opts.date, reportPeriod: 30, userCounts: opts.apps.map((a) => ({ teams: 0, ...a })) }] : [],
    ...(opts.appUsers ? { appUsers: { reportRefreshDate: opts.date, ...opts.appUsers } } : {}),
    copilot: opts.copilot
      ? [{ reportRefreshDate: opts.date, reportPeriod: 30, anyAppEnabledUsers: opts.copilot.enabled, anyAppActiveUsers: opts.copilot.active }]
      : [],
  };
}

/** Whether user `i` used the app: one of the first N, or within [from, to). */
function usedBy(range: number | [number, number] | undefined, i: number): boolean {
  if (range === undefined) return false;
  const [from, to] = typeof range === 'number' ? [0, range] : range;
  return i >= from && i < to;
}

/** User `i`'s row of the user detail report, as the JSON names it (the CSV has a column per field). */
function userRow(d: FakeAppUsers, i: number) {
  const apps = Object.fromEntries(DETAIL_APPS.map((app) => [app, usedBy(d.apps[app], i)])) as Record<DetailApp, boolean>;
  const any = Object.values(apps).some(Boolean);
  // Concealed, a name is a hash-like string: the row counts all the same.
  const upn = d.concealed ? crypto.createHash('md5').update(`user${i}`).digest('hex').toUpperCase() : `user${i}@contoso.example`;
  const platforms = { windows: any, mac: false, mobile: apps.outlook || apps.teams, web: apps.word || apps.excel };
  const perPlatform: Record<string, boolean> = {};
  for (const [p, on] of Object.entries(platforms))
    for (const app of DETAIL_APPS) perPlatform[`${app}${p.charAt(0).toUpperCase()}${p.slice(1)}`] = apps[app] && on;
  return {
    reportRefreshDate: d.reportRefreshDate,
    userPrincipalName: upn,
    lastActivationDate: '2026-01-15',
    lastActivityDate: any ? d.reportRefreshDate : '',
    details: [{ reportPeriod: d.reportPeriod ?? 30, ...platforms, ...apps, ...perPlatform }],
  };
}

/** User `i`'s line of the user detail's CSV, in COLUMNS.appUsers' order. */
function userLine(d: FakeAppUsers, i: number): string {
  const { details, ...user } = userRow(d, i);
  const t = details[0]!;
  const apps = DETAIL_APPS.map((app) => t[app]);
  const platforms = [t.windows, t.mac, t.mobile, t.web];
  const perPlatform = platforms.flatMap((on) => apps.map((used) => used && on));
  return [user.reportRefreshDate, user.userPrincipalName, user.lastActivationDate, user.lastActivityDate, t.reportPeriod, ...platforms, ...apps, ...perPlatform]
    .map(cell)
    .join(',');
}

/** A report's rows, flat (a day of the apps report carries its report's refresh date and period; a user's row its details). */
function* rowsOf(report: Report, usage: FakeUsage): Generator<Record<string, string | number | boolean>> {
  if (report === 'apps') {
    for (const { userCounts, ...head } of usage.apps ?? []) for (const day of userCounts) yield { ...head, ...day };
  } else if (report === 'appUsers') {
    const d = usage.appUsers;
    for (let i = 0; d && i < d.users; i++) {
      const { details, ...user } = userRow(d, i);
      Object.assign(user, details[0]);
      yield user as unknown as Record<string, string | number | boolean>;
    }
  } else yield* usage[report] ?? [];
}

/** A cell as Graph's CSV writes it: Yes or No for a tick, the value else (an absent number is an empty cell). */
const cell = (value: unknown) => (value === true ? 'Yes' : value === false ? 'No' : String(value ?? ''));

/** A row's CSV line, its cells in `keys`' order (the keys as keyOf makes them). */
function csvLine(keys: string[], row: Record<string, unknown>): string {
  const byKey: Record<string, unknown> = {};
  for (const k in row) byKey[keyOf(k)] = row[k];
  return keys.map((key) => cell(byKey[key])).join(',');
}

/** The report as Graph's CSV, in pieces of a few hundred lines: byte order mark, header row, a line per row. */
export function* csvChunks(report: Report, usage: FakeUsage): Generator<string> {
  const keys = COLUMNS[report].map(keyOf);
  let lines = [`\uFEFF${COLUMNS[report].join(',')}`];
  const d = report === 'appUsers' ? usage.appUsers : undefined;
  // The user detail's lines straight from its rows' order of columns: 100,000 of them in a test's time.
  const rows = d ? Array.from({ length: d.users }, (_, i) => i) : rowsOf(report, usage);
  for (const row of rows) {
    lines.push(typeof row === 'number' ? userLine(d!, row) : csvLine(keys, row));
    if (lines.length >= 500) {
      yield `${lines.join('\r\n')}\r\n`;
      lines = [];
    }
  }
  if (lines.length) yield `${lines.join('\r\n')}\r\n`;
}

/** The report as Graph's CSV, whole. */
export function usageCsv(report: Report, usage: FakeUsage): string {
  return [...csvChunks(report, usage)].join('');
}

/** Rows per page of the user detail report's JSON, as Graph pages it. */
const USER_PAGE = 200;

/** The report as Graph's JSON (the user detail a page of it, from `skip`, with the next page's link). */
export function usageJson(report: Report, usage: FakeUsage, page: { skip: number; next: (skip: number) => string } = { skip: 0, next: String }): unknown {
  if (report === 'copilot')
    return {
      value: (usage.copilot ?? []).map(({ reportRefreshDate, ...product }) => ({ reportRefreshDate, adoptionByProduct: [product] })),
    };
  if (report === 'appUsers') {
    const d = usage.appUsers;
    const end = Math.min(d?.users ?? 0, page.skip + USER_PAGE);
    const value = [];
    for (let i = page.skip; d && i < end; i++) value.push(userRow(d, i));
    return { ...(d && end < d.users ? { '@odata.nextLink': page.next(end) } : {}), value };
  }
  return { value: usage[report] ?? [] };
}

const PATHS: [RegExp, Report][] = [
  [/^\/v1\.0\/reports\/getOffice365ServicesUserCounts\(period='D\d+'\)$/, 'services'],
  [/^\/v1\.0\/reports\/getM365AppUserCounts\(period='D\d+'\)$/, 'apps'],
  [/^\/v1\.0\/reports\/getM365AppUserDetail\(period='D\d+'\)$/, 'appUsers'],
  [/^\/v1\.0\/copilot\/reports\/getMicrosoft365CopilotUserCountSummary\(period='D\d+'\)$/, 'copilot'],
];

/** Files of the download URLs handed out, by their one-time name: each written as it is sent. */
const downloads = new Map<string, () => Generator<string>>();
let downloadSeq = 0;

/** Writes the pieces, waiting while the socket is full (a large file is never held whole). */
async function send(res: http.ServerResponse, pieces: Iterable<string>) {
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/**
 * Answers a usage report or a download of one; false when the request is neither. `log` records, e.g.
 * `GET /reports services`, `GET /reports services 429`, `GET /download (no token)`.
 */
export function usageReport(
  tenant: { usage?: FakeUsage; throttle?: { times: number; retryAfterSeconds: number; feeds?: string[] } } | null,
  roles: string[],
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  base: string,
  log: (line: string) => void,
): boolean {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const download = /^\/download\/([\w-]+)$/.exec(url.pathname);
  if (req.method === 'GET' && download) {
    log(`GET /download (${req.headers.authorization ? 'with a token' : 'no token'})`);
    const file = downloads.get(download[1]!);
    if (file === undefined) return (res.writeHead(404).end(), true);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    void send(res, file());
    return true;
  }
  const report = PATHS.find(([pattern]) => pattern.test(decodeURIComponent(url.pathname)))?.[1];
  if (req.method !== 'GET' || !report || !tenant) return false;
  if (tenant.throttle && tenant.throttle.times > 0 && (tenant.throttle.feeds ?? []).includes('usage')) {
    tenant.throttle.times--;
    log(`GET /reports ${report} 429`);
    json(429, { error: { code: 'TooManyRequests', message: 'Too many requests' } }, { 'retry-after': String(tenant.throttle.retryAfterSeconds) });
    return true;
  }
  log(`GET /reports ${report}`);
  if (!roles.includes('Reports.Read.All')) {
    json(403, { error: { code: 'Forbidden', message: 'Insufficient privileges to complete the operation.' } });
    return true;
  }
  const usage = tenant.usage ?? {};
  // v1.0 answers the Copilot summary as CSV, directly; the other two as JSON when asked, else a CSV download.
  if (report === 'copilot') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(usageCsv(report, usage));
  else if (url.searchParams.get('$format') === 'application/json') {
    const skip = Number(url.searchParams.get('$skiptoken') ?? 0) || 0;
    const next = (at: number) => {
      const link = new URL(url.toString().replace(/^https?:\/\/[^/]+/, base));
      link.searchParams.set('$skiptoken', String(at));
      return link.toString();
    };
    json(200, usageJson(report, usage, { skip, next }));
  } else {
    const name = `report-${++downloadSeq}`;
    // The file as it is when asked for (a copy of the tenant's usage now), written when it is downloaded.
    const now = structuredClone(usage);
    downloads.set(name, () => csvChunks(report, now));
    res.writeHead(302, { 'content-type': 'text/plain', location: `${base}/download/${name}` }).end();
  }
  return true;
}
