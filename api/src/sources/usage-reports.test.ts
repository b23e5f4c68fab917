import { describe, expect, it } from '@jest/globals';
import { usageCsv, usageJson, usageOf } from '../../test/tenant-usage-reports.js';
import { FeedFormatError } from './errors.js';
import { usageReadingsOf } from './usage-reports.js';

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
