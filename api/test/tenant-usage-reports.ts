import type http from 'node:http';

/**
 * The usage reports of the local Graph (tenant-graph-server.ts), in the shapes Microsoft documents for v1.0:
 * - `GET /v1.0/reports/getOffice365ServicesUserCounts(period='D30')`: a 302 to a download URL on the same server, whose
 *   file is CSV with a UTF-8 byte order mark and a header row; JSON (`value[]`) with `$format=application/json`;
 * - `GET /v1.0/reports/getM365AppUserCounts(period='D30')`: the same, the JSON nesting the days in `userCounts[]`;
 * - `GET /v1.0/copilot/reports/getMicrosoft365CopilotUserCountSummary(period='D30')`: CSV answered directly (200).
 * Each needs Reports.Read.All (403 without); a tenant's `throttle` with `usage` among its feeds answers 429 first.
 */

/** A tenant's usage as Graph's JSON names it: the rows of each report (a report the tenant lacks answers no rows). */
export interface FakeUsage {
  services?: Record<string, string | number>[];
  apps?: { reportRefreshDate: string; reportPeriod: number; userCounts: Record<string, string | number>[] }[];
  copilot?: Record<string, string | number>[];
}

type Report = 'services' | 'apps' | 'copilot';

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

/** A tenant's usage: each service's [active, inactive], each day's app counts, Copilot's enabled and active users. */
export function usageOf(opts: {
  date: string;
  services?: Partial<Record<'exchange' | 'oneDrive' | 'sharePoint' | 'teams' | 'yammer', [number, number]>>;
  apps?: { reportDate: string; outlook: number; word: number; excel: number; powerPoint: number; oneNote: number; teams?: number }[];
  copilot?: { enabled: number; active: number };
}): FakeUsage {
  const services = Object.entries(opts.services ?? {}).flatMap(([s, [active, inactive]]) => [
    [`${s}Active`, active],
    [`${s}Inactive`, inactive],
  ]);
  return {
    services: opts.services ? [{ reportRefreshDate: opts.date, ...Object.fromEntries(services), skypeForBusinessActive: '', reportPeriod: 30 }] : [],
    apps: opts.apps ? [{ reportRefreshDate: opts.date, reportPeriod: 30, userCounts: opts.apps.map((a) => ({ teams: 0, ...a })) }] : [],
    copilot: opts.copilot
      ? [{ reportRefreshDate: opts.date, reportPeriod: 30, anyAppEnabledUsers: opts.copilot.enabled, anyAppActiveUsers: opts.copilot.active }]
      : [],
  };
}

/** A report's rows, flat (a day of the apps report carries its report's refresh date and period). */
function rowsOf(report: Report, usage: FakeUsage): Record<string, string | number>[] {
  if (report === 'apps') return (usage.apps ?? []).flatMap(({ userCounts, ...report }) => userCounts.map((day) => ({ ...report, ...day })));
  return usage[report] ?? [];
}

/** The report as Graph's CSV: byte order mark, header row, a line per row (an absent number is an empty cell). */
export function usageCsv(report: Report, usage: FakeUsage): string {
  const lines = rowsOf(report, usage).map((row) => {
    const byKey = new Map(Object.entries(row).map(([k, v]) => [keyOf(k), v]));
    return COLUMNS[report].map((column) => String(byKey.get(keyOf(column)) ?? '')).join(',');
  });
  return `\uFEFF${[COLUMNS[report].join(','), ...lines].join('\r\n')}\r\n`;
}

/** The report as Graph's JSON. */
export function usageJson(report: Report, usage: FakeUsage): unknown {
  if (report === 'copilot')
    return {
      value: (usage.copilot ?? []).map(({ reportRefreshDate, ...product }) => ({ reportRefreshDate, adoptionByProduct: [product] })),
    };
  return { value: usage[report] ?? [] };
}

const PATHS: [RegExp, Report][] = [
  [/^\/v1\.0\/reports\/getOffice365ServicesUserCounts\(period='D\d+'\)$/, 'services'],
  [/^\/v1\.0\/reports\/getM365AppUserCounts\(period='D\d+'\)$/, 'apps'],
  [/^\/v1\.0\/copilot\/reports\/getMicrosoft365CopilotUserCountSummary\(period='D\d+'\)$/, 'copilot'],
];

/** Files of the download URLs handed out, by their one-time name. */
const downloads = new Map<string, string>();
let downloadSeq = 0;

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
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
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
  else if (url.searchParams.get('$format') === 'application/json') json(200, usageJson(report, usage));
  else {
    const name = `report-${++downloadSeq}`;
    downloads.set(name, usageCsv(report, usage));
    res.writeHead(302, { 'content-type': 'text/plain', location: `${base}/download/${name}` }).end();
  }
  return true;
}
