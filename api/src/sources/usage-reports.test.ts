import { describe, expect, it } from '@jest/globals';
import { csvChunks, usageCsv, usageJson, usageOf, type FakeAppUsers } from '../../test/tenant-usage-reports.js';
import { FeedFormatError } from './errors.js';
import { appUserCounts, usageReadingsOf } from './usage-reports.js';

const usage = usageOf({
  date: '2026-11-25',
  services: { exchange: [900, 100], oneDrive: [600, 400], sharePoint: [500, 500], teams: [950, 50], yammer: [20, 980] },
  apps: [
    { reportDate: '2026-11-24', outlook: 800, word: 300, excel: 250, powerPoint: 90, oneNote: 30 },
    { reportDate: '2026-11-25', outlook: 810, word: 320, excel: 260, powerPoint: 95, oneNote: 31 },
  ],
  copilot: { enabled: 50, active: 35 },
});

describe('usage reports', () => {
  it('read the services report from its CSV (byte order mark, header row): active and licensed (active + inactive) per service', () => {
    const csv = usageCsv('services', usage);
    expect(csv.startsWith('\uFEFFReport Refresh Date,Exchange Active,Exchange Inactive,')).toBe(true);
    expect(usageReadingsOf('services', csv, 'application/octet-stream')).toEqual([
      { workload: 'exchange', reportDate: '2026-11-25', periodDays: 30, activeUsers: 900, licensedUsers: 1000 },
      { workload: 'onedrive', reportDate: '2026-11-25', periodDays: 30, activeUsers: 600, licensedUsers: 1000 },
      { workload: 'sharepoint', reportDate: '2026-11-25', periodDays: 30, activeUsers: 500, licensedUsers: 1000 },
      { workload: 'teams', reportDate: '2026-11-25', periodDays: 30, activeUsers: 950, licensedUsers: 1000 },
      { workload: 'yammer', reportDate: '2026-11-25', periodDays: 30, activeUsers: 20, licensedUsers: 1000 },
    ]);
  });

  it('read the same counts from a report’s JSON as from its CSV', () => {
    for (const report of ['services', 'apps', 'copilot'] as const) {
      const json = JSON.stringify(usageJson(report, usage));
      expect(usageReadingsOf(report, json, 'application/json')).toEqual(usageReadingsOf(report, usageCsv(report, usage), null));
    }
  });

  it('read the apps report per day and app, the busiest app standing for the Microsoft 365 apps', () => {
    const readings = usageReadingsOf('apps', JSON.stringify(usageJson('apps', usage)), 'application/json; charset=utf-8');
    expect(readings.filter((r) => r.reportDate === '2026-11-25')).toEqual([
      { workload: 'outlook', reportDate: '2026-11-25', periodDays: 1, activeUsers: 810, licensedUsers: null },
      { workload: 'word', reportDate: '2026-11-25', periodDays: 1, activeUsers: 320, licensedUsers: null },
      { workload: 'excel', reportDate: '2026-11-25', periodDays: 1, activeUsers: 260, licensedUsers: null },
      { workload: 'powerpoint', reportDate: '2026-11-25', periodDays: 1, activeUsers: 95, licensedUsers: null },
      { workload: 'onenote', reportDate: '2026-11-25', periodDays: 1, activeUsers: 31, licensedUsers: null },
      { workload: 'm365apps', reportDate: '2026-11-25', periodDays: 1, activeUsers: 810, licensedUsers: null },
    ]);
    expect(readings.filter((r) => r.reportDate === '2026-11-24')).toHaveLength(6);
  });

  it('read Copilot’s enabled users as its licensed and its any-app users as its active', () => {
    expect(usageReadingsOf('copilot', usageCsv('copilot', usage), 'application/octet-stream')).toEqual([
      { workload: 'copilot', reportDate: '2026-11-25', periodDays: 30, activeUsers: 35, licensedUsers: 50 },
    ]);
  });

  it('skip a service whose cells are empty and read a report without rows as no counts', () => {
    const noYammer = usageOf({ date: '2026-11-25', services: { teams: [10, 0] } });
    expect(usageReadingsOf('services', usageCsv('services', noYammer), null).map((r) => r.workload)).toEqual(['teams']);
    expect(usageReadingsOf('copilot', usageCsv('copilot', usageOf({ date: '2026-11-25' })), null)).toEqual([]);
  });

  it('refuse an answer that is not the report rather than read it as no usage', () => {
    expect(() => usageReadingsOf('services', usageCsv('apps', usage), null)).toThrow(FeedFormatError);
    expect(() => usageReadingsOf('services', '{"error":{"code":"UnknownError"}}', 'application/json')).toThrow(/no value list/);
    const negative = usageCsv('services', usageOf({ date: '2026-11-25', services: { teams: [-1, 0] } }));
    expect(() => usageReadingsOf('services', negative, null)).toThrow(/teamsactive is not a count/);
  });
});

/** A body as it arrives: the text cut into pieces of `size` bytes (a row, the byte order mark or a character may span two). */
async function* pieces(text: string, size = 7): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const detail = (d: Omit<FakeAppUsers, 'reportRefreshDate'>) => usageOf({ date: '2026-11-25', appUsers: d });
const thirty = (counts: Record<string, number>) =>
  ['outlook', 'word', 'excel', 'powerpoint', 'onenote', 'm365apps'].map((workload) => ({
    workload,
    reportDate: '2026-11-25',
    periodDays: 30,
    activeUsers: counts[workload] ?? 0,
    licensedUsers: null,
  }));

describe('the apps’ user detail report', () => {
  // 10 people: Outlook the first 6, Word 2 to 5, Excel 8 and 9, Teams only the last; nobody PowerPoint or OneNote.
  const tenPeople = detail({ users: 10, apps: { outlook: 6, word: [2, 5], excel: [8, 10], teams: [9, 10] } });

  it('counts each app’s users over 30 days from the CSV as it arrives, and the people who used any of the apps', async () => {
    const csv = usageCsv('appUsers', tenPeople);
    expect(csv.startsWith('\uFEFFReport Refresh Date,User Principal Name,Last Activation Date,Last Activity Date,Report Period,Windows,')).toBe(true);
    expect(csv.split('\r\n')[1]).toMatch(/^2026-11-25,user0@contoso\.example,.*,Yes,No,No,No,No,No,/);
    // Teams has its own report (with the licensed users): the apps' "any" is Outlook, Word, Excel, PowerPoint, OneNote.
    expect(await appUserCounts(pieces(csv), 'application/octet-stream')).toEqual(
      thirty({ outlook: 6, word: 3, excel: 2, powerpoint: 0, onenote: 0, m365apps: 8 }),
    );
  });

  it('counts concealed names the same', async () => {
    const concealed = detail({ users: 10, apps: { outlook: 6, word: [2, 5], excel: [8, 10], teams: [9, 10] }, concealed: true });
    const csv = usageCsv('appUsers', concealed);
    expect(csv).not.toContain('@');
    expect(await appUserCounts(pieces(csv, 64), null)).toEqual(await appUserCounts(pieces(usageCsv('appUsers', tenPeople)), null));
  });

  it('reads a whole JSON answer (ticks in details[]) as the CSV, and refuses a paged one rather than count one page', async () => {
    const json = JSON.stringify(usageJson('appUsers', tenPeople));
    expect(await appUserCounts(pieces(json, 100), 'application/json')).toEqual(await appUserCounts(pieces(usageCsv('appUsers', tenPeople)), null));
    const paged = JSON.stringify(
      usageJson('appUsers', detail({ users: 450, apps: { word: 300 } }), { skip: 0, next: (at) => `https://graph.example/next?$skiptoken=${at}` }),
    );
    await expect(appUserCounts(pieces(paged, 4096), 'application/json')).rejects.toThrow(/paged JSON/);
  });

  it('counts 100,000 users as their rows arrive', async () => {
    const big = detail({ users: 100_000, apps: { outlook: 91_000, word: [10_000, 72_000], excel: [95_000, 100_000], oneNote: 1 } });
    // The file is never one string here either: its pieces go to the counter as the stand-in writes them.
    async function* arriving() {
      for (const piece of csvChunks('appUsers', big)) yield Buffer.from(piece, 'utf8');
    }
    expect(await appUserCounts(arriving(), null)).toEqual(thirty({ outlook: 91_000, word: 62_000, excel: 5_000, powerpoint: 0, onenote: 1, m365apps: 96_000 }));
  }, 120_000);

  it('reads a report without rows as no counts, and refuses what is not that report', async () => {
    expect(await appUserCounts(pieces(usageCsv('appUsers', detail({ users: 0, apps: {} }))), null)).toEqual([]);
    await expect(appUserCounts(pieces(usageCsv('services', usage)), null)).rejects.toThrow(FeedFormatError);
    await expect(appUserCounts(pieces('\uFEFFReport Refresh Date,Outlook\r\n"2026-11-25,Yes\r\n'), null)).rejects.toThrow(/not a readable CSV/);
    await expect(appUserCounts(pieces('Report Refresh Date,Outlook\r\nyesterday,Yes\r\n'), null)).rejects.toThrow(/no report date/);
  });
});
