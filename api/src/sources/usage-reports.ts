import type { UsageWorkload } from '@radar/contracts';
import { Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { FeedFormatError } from './errors.js';

/**
 * Microsoft Graph's usage reports a tenant's usage is read from (Reports.Read.All), and how their answers become
 * counts per workload. Graph sends a report as CSV (by default: a UTF-8 file with a byte order mark and a header row,
 * most behind a 302 to a download URL) or as JSON (`$format=application/json`, where the report offers it); both are
 * read here, whichever arrives. The reports hold counts only, so concealed user names ("Display concealed user, group,
 * and site names in all reports") change nothing in them.
 */

/** One count: on `reportDate`, `activeUsers` were active on the workload within `periodDays` (of `licensedUsers`). */
export interface UsageReading {
  workload: UsageWorkload;
  reportDate: string;
  periodDays: number;
  activeUsers: number;
  licensedUsers: number | null;
}

export type UsageReportName = 'services' | 'apps' | 'appUsers' | 'copilot';

/**
 * The four reports, each over the last 30 days:
 * - `services`: active and inactive (licensed, not active) users per service on the report's date
 *   (CSV only in v1.0: Report Refresh Date, Exchange Active, Exchange Inactive, … Teams Inactive, Report Period);
 * - `apps`: the Microsoft 365 apps' active users per day and app (Report Date, Outlook, Word, Excel, PowerPoint,
 *   OneNote, Teams), asked as JSON (`value[].userCounts[]`): each day's count, kept for the usage trend;
 * - `appUsers`: one row per user with Yes or No per app over the 30 days (Report Refresh Date, User Principal Name, …,
 *   Report Period, Windows, Mac, Mobile, Web, Outlook, Word, Excel, PowerPoint, OneNote, Teams, then per platform),
 *   read as CSV from the download Graph redirects to and counted as it arrives (appUserCounts): the apps' 30-day
 *   active users, what relevance reads. Concealed names change nothing: a row counts whatever its name says;
 * - `copilot`: Microsoft 365 Copilot's enabled and active users (Any App Enabled Users, Any App Active Users), under
 *   `/copilot/reports` (v1.0 answers CSV; the beta's JSON nests them in `adoptionByProduct[]`).
 */
export const USAGE_REPORTS: Readonly<Record<UsageReportName, { path: string; label: string }>> = {
  services: { path: "/v1.0/reports/getOffice365ServicesUserCounts(period='D30')", label: 'services user counts' },
  apps: { path: "/v1.0/reports/getM365AppUserCounts(period='D30')?$format=application/json", label: 'Microsoft 365 apps user counts' },
  appUsers: { path: "/v1.0/reports/getM365AppUserDetail(period='D30')", label: 'Microsoft 365 apps user detail' },
  copilot: { path: "/v1.0/copilot/reports/getMicrosoft365CopilotUserCountSummary(period='D30')", label: 'Copilot user count summary' },
};

/** A report's column or property, whichever format: "Exchange Active" (CSV) and "exchangeActive" (JSON) are `exchangeactive`. */
const keyOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

type Row = Map<string, unknown>;

const rowOf = (entries: [string, unknown][]): Row => new Map(entries.map(([k, v]) => [keyOf(k), v]));

/** JSON: `value[]`, each entry one row, or one row per element of its nested list (userCounts, adoptionByProduct…) with the entry's own fields. */
function jsonRows(text: string, what: string): Row[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FeedFormatError(`Graph ${what} is not JSON`);
  }
  const value = (json as { value?: unknown }).value;
  if (!Array.isArray(value)) throw new FeedFormatError(`Graph ${what} has no value list`);
  return value.flatMap((entry) => {
    if (!entry || typeof entry !== 'object') throw new FeedFormatError(`Graph ${what} lists something that is not an object`);
    const fields = Object.entries(entry as Record<string, unknown>);
    const own = fields.filter(([, v]) => !Array.isArray(v));
    const nested = fields.find(([, v]) => Array.isArray(v))?.[1] as unknown[] | undefined;
    if (!nested) return [rowOf(own)];
    return nested.map((inner) => rowOf([...own, ...Object.entries((inner ?? {}) as Record<string, unknown>)]));
  });
}

function csvRows(text: string, what: string): Row[] {
  try {
    const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as Record<string, string>[];
    return records.map((r) => rowOf(Object.entries(r)));
  } catch (err) {
    throw new FeedFormatError(`Graph ${what} is not a readable CSV: ${(err as Error).message}`);
  }
}

/** A report's rows, by its media type or, when that says nothing useful, by what the body starts with. */
export function reportRows(text: string, contentType: string | null, what: string): Row[] {
  const body = text.replace(/^\uFEFF/, '');
  const json = /json/i.test(contentType ?? '') || /^\s*[{[]/.test(body);
  return json ? jsonRows(body, what) : csvRows(body, what);
}

/** A count of a row: a missing or empty cell is null (the report has no such number), anything else must be a whole number. */
function count(row: Row, key: string, what: string): number | null {
  const value = row.get(key);
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 0) throw new FeedFormatError(`Graph ${what}: ${key} is not a count (${String(value)})`);
  return n;
}

function day(row: Row, keys: string[], what: string): string {
  const value = keys.map((k) => row.get(k)).find((v) => v !== undefined && v !== '');
  const text = String(value ?? '').slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new FeedFormatError(`Graph ${what} has no report date (${keys.join(' or ')})`);
  return text;
}

const periodOf = (row: Row, what: string) => count(row, 'reportperiod', what) ?? 30;

/** The services whose active and inactive users the services report counts, by the workload they are. */
const SERVICES: [UsageWorkload, string][] = [
  ['exchange', 'exchange'],
  ['onedrive', 'onedrive'],
  ['sharepoint', 'sharepoint'],
  ['teams', 'teams'],
  ['yammer', 'yammer'],
];

/** The apps the apps report counts (its Teams column is left to the services report, which also counts the inactive). */
const APPS: UsageWorkload[] = ['outlook', 'word', 'excel', 'powerpoint', 'onenote'];

function servicesReadings(rows: Row[], what: string): UsageReading[] {
  return rows.flatMap((row) => {
    const reportDate = day(row, ['reportrefreshdate'], what);
    const periodDays = periodOf(row, what);
    return SERVICES.flatMap(([workload, column]) => {
      const active = count(row, `${column}active`, what);
      const inactive = count(row, `${column}inactive`, what);
      if (active === null) return [];
      return [{ workload, reportDate, periodDays, activeUsers: active, licensedUsers: inactive === null ? null : active + inactive }];
    });
  });
}

/**
 * The apps report counts each app's active users per day. Graph gives no count of the people who used any of them,
 * so `m365apps` is the busiest app's count that day: at least that many used the Microsoft 365 apps.
 */
function appsReadings(rows: Row[], what: string): UsageReading[] {
  return rows.flatMap((row) => {
    const reportDate = day(row, ['reportdate', 'reportrefreshdate'], what);
    const apps = APPS.flatMap((workload) => {
      const active = count(row, workload, what);
      return active === null ? [] : [{ workload, reportDate, periodDays: 1, activeUsers: active, licensedUsers: null }];
    });
    if (apps.length === 0) return [];
    return [
      ...apps,
      { workload: 'm365apps' as const, reportDate, periodDays: 1, activeUsers: Math.max(...apps.map((a) => a.activeUsers)), licensedUsers: null },
    ];
  });
}

/** Copilot: people with a Microsoft 365 Copilot licence (enabled) and those who used it in any app (active), over 30 days. */
function copilotReadings(rows: Row[], what: string): UsageReading[] {
  const usable = rows.filter((row) => count(row, 'anyappactiveusers', what) !== null);
  const row = usable.find((r) => periodOf(r, what) === 30) ?? usable[0];
  if (!row) return [];
  return [
    {
      workload: 'copilot',
      reportDate: day(row, ['reportrefreshdate', 'reportdate'], what),
      periodDays: periodOf(row, what),
      activeUsers: count(row, 'anyappactiveusers', what) ?? 0,
      licensedUsers: count(row, 'anyappenabledusers', what),
    },
  ];
}

/** The counts of one report's answer (CSV or JSON); throws FeedFormatError when the answer is not that report. */
export function usageReadingsOf(report: Exclude<UsageReportName, 'appUsers'>, text: string, contentType: string | null): UsageReading[] {
  const what = USAGE_REPORTS[report].label;
  const rows = reportRows(text, contentType, what);
  const readings = report === 'services' ? servicesReadings(rows, what) : report === 'apps' ? appsReadings(rows, what) : copilotReadings(rows, what);
  // Rows without one count this report has are another answer (an error page, another report): never read as none.
  if (rows.length > 0 && readings.length === 0) throw new FeedFormatError(`Graph ${what} has none of the report's columns`);
  return readings;
}

/** A user row's app cell: "Yes" in the CSV, true in the JSON. */
const used = (value: unknown) => value === true || (typeof value === 'string' && /^(yes|true)$/i.test(value.trim()));

/** The counts the user detail's rows add up to, one row at a time (nothing of a row is kept but its ticks). */
function userTally(what: string) {
  const counts = new Map<UsageWorkload, number>(APPS.map((app) => [app, 0]));
  let anyApp = 0;
  let rows = 0;
  let reportDate: string | null = null;
  let periodDays = 30;
  return {
    add(row: (key: string) => unknown) {
      rows++;
      if (reportDate === null) {
        const date = String(row('reportrefreshdate') ?? '').slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new FeedFormatError(`Graph ${what} has no report date (reportrefreshdate)`);
        reportDate = date;
        const period = Number(row('reportperiod'));
        if (Number.isInteger(period) && period > 0) periodDays = period;
      }
      let any = false;
      for (const app of APPS) {
        if (!used(row(app))) continue;
        counts.set(app, (counts.get(app) ?? 0) + 1);
        any = true;
      }
      if (any) anyApp++;
    },
    readings(): UsageReading[] {
      if (reportDate === null) return [];
      const date = reportDate;
      const per = APPS.map((workload) => ({ workload, reportDate: date, periodDays, activeUsers: counts.get(workload) ?? 0, licensedUsers: null }));
      return [...per, { workload: 'm365apps' as const, reportDate: date, periodDays, activeUsers: anyApp, licensedUsers: null }];
    },
    get rows() {
      return rows;
    },
  };
}

/** Past this a JSON answer (one page, not the CSV asked for) is refused rather than held. */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/**
 * The apps' 30-day active users from the user detail report (`appUsers`), counted as its CSV arrives: per app the
 * people whose row says Yes, and `m365apps` the people who used any of them (a true count of people, where the daily
 * counts can only give the busiest app). A 100,000-user tenant is 100,000 rows: each is parsed, ticked and dropped.
 * A JSON answer (one page of `value[]`, each user's ticks in `details[]`) is read too when it is whole; a paged one
 * is refused (the CSV has every row in one file).
 */
export async function appUserCounts(body: AsyncIterable<Buffer>, contentType: string | null): Promise<UsageReading[]> {
  const what = USAGE_REPORTS.appUsers.label;
  const tally = userTally(what);
  if (/json/i.test(contentType ?? '')) {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) throw new FeedFormatError(`Graph ${what} answered JSON larger than ${MAX_JSON_BYTES} bytes`);
      parts.push(chunk);
    }
    const text = Buffer.concat(parts).toString('utf8');
    if (/"@odata\.nextLink"/.test(text)) throw new FeedFormatError(`Graph ${what} answered paged JSON, not the CSV asked for`);
    for (const row of reportRows(text, contentType, what)) tally.add((key) => row.get(key));
  } else {
    const parser = parseStream({ bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
    const source = Readable.from(body);
    source.on('error', (err) => parser.destroy(err));
    source.pipe(parser);
    let columns: Map<string, number> | null = null;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (!columns) {
          columns = new Map(record.map((name, i) => [keyOf(name), i]));
          if (!APPS.some((app) => columns?.has(app))) throw new FeedFormatError(`Graph ${what} has none of the report's columns`);
          continue;
        }
        const at = columns;
        tally.add((key) => {
          const i = at.get(key);
          return i === undefined ? undefined : record[i];
        });
      }
    } catch (err) {
      // The parser's own complaints are a bad file; a cut-off, a timeout or a refusal of the size stays what it is.
      if (String((err as { code?: unknown }).code ?? '').startsWith('CSV_'))
        throw new FeedFormatError(`Graph ${what} is not a readable CSV: ${(err as Error).message}`);
      throw err;
    } finally {
      // Stops reading the download when the rows were refused before its end.
      source.destroy();
    }
  }
  return tally.readings();
}
