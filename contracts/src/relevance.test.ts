import { describe, expect, it } from '@jest/globals';
import { licensedProductsOf } from './licences.js';
import {
  compareRelevance,
  DEFAULT_RELEVANCE_THRESHOLDS,
  highestRelevance,
  relevanceOf,
  relevancePriority,
  RELEVANCE_LEVELS,
  type RelevanceInput,
  type RelevanceLevel,
  type WorkloadUsage,
} from './relevance.js';
import { relevanceThresholds } from './relevance-thresholds.js';

const E5 = licensedProductsOf(['TEAMS1', 'EXCHANGE_S_ENTERPRISE', 'SHAREPOINTENTERPRISE', 'OFFICESUBSCRIPTION', 'YAMMER_ENTERPRISE', 'AAD_PREMIUM']);
const use = (workload: WorkloadUsage['workload'], activeUsers: number | null, licensedUsers: number | null = null): WorkloadUsage => ({
  workload,
  activeUsers,
  licensedUsers,
});
const of = (names: string[], usage: WorkloadUsage[], more: Partial<RelevanceInput> = {}) =>
  relevanceOf({ names, usage, usageRead: true, licensedProducts: E5, ...more });

describe('relevance from usage', () => {
  it('reads a workload’s active users and their share of licensed users, in words', () => {
    expect(of(['Microsoft Teams'], [use('teams', 1240, 1512)])).toEqual({
      level: 'high',
      workload: 'teams',
      activeUsers: 1240,
      share: 1240 / 1512,
      reason: '1,240 people used Teams in the last 30 days, 82 % of licensed users',
    });
  });

  it('says nobody used it, with the licensed users when known', () => {
    expect(of(['Viva Engage'], [use('yammer', 0, 300)])).toEqual({
      level: 'low',
      workload: 'yammer',
      activeUsers: 0,
      share: 0,
      reason: 'Nobody used Viva Engage in the last 30 days (0 of 300 licensed users)',
    });
    expect(of(['Viva Engage'], [use('yammer', 0)])).toMatchObject({ level: 'low', reason: 'Nobody used Viva Engage in the last 30 days' });
    expect(of(['Viva Engage'], [use('yammer', 0, 1)]).reason).toBe('Nobody used Viva Engage in the last 30 days (0 of 1 licensed user)');
  });

  it.each<[string, number, number | null, RelevanceLevel]>([
    ['half the licensed users is High', 50, 100, 'high'],
    ['just under half, with few people, is Medium', 499, 1000, 'medium'],
    ['500 people is High whatever the share', 500, 100_000, 'high'],
    ['499 people of unknown licensed users is Medium', 499, null, 'medium'],
    ['a tenth of the licensed users is Medium', 10, 100, 'medium'],
    ['just under a tenth, with few people, is Low', 9, 100, 'low'],
    ['50 people is Medium whatever the share', 50, 100_000, 'medium'],
    ['49 people of unknown licensed users is Low', 49, null, 'low'],
    ['49 people of 10,000 is Low', 49, 10_000, 'low'],
  ])('%s', (_, active, licensed, level) => {
    expect(of(['Microsoft Teams'], [use('teams', active, licensed)]).level).toBe(level);
  });

  it('writes counts with thousands separators and one person in the singular', () => {
    expect(of(['Exchange Online'], [use('exchange', 12_345, 20_000)]).reason).toBe(
      '12,345 people used Exchange Online in the last 30 days, 61 % of licensed users',
    );
    expect(of(['Exchange Online'], [use('exchange', 1, 4)]).reason).toBe('1 person used Exchange Online in the last 30 days, 25 % of licensed users');
    expect(of(['Exchange Online'], [use('exchange', 1234)]).reason).toBe('1,234 people used Exchange Online in the last 30 days');
  });

  it('rounds the share down, so a share under a threshold never reads as it, and says “under 1 %”', () => {
    expect(of(['SharePoint'], [use('sharepoint', 4999, 10_000)])).toMatchObject({ level: 'high', reason: expect.stringContaining(', 49 % of licensed users') });
    expect(of(['SharePoint'], [use('sharepoint', 30, 61)])).toMatchObject({ level: 'medium', reason: expect.stringContaining(', 49 % of licensed users') });
    expect(of(['SharePoint'], [use('sharepoint', 3, 1000)]).reason).toBe('3 people used SharePoint in the last 30 days, under 1 % of licensed users');
    expect(of(['SharePoint'], [use('sharepoint', 7, 7)]).reason).toBe('7 people used SharePoint in the last 30 days, 100 % of licensed users');
  });

  it('says when more people used a workload than are licensed (guests, reports that lag the licences)', () => {
    expect(of(['Microsoft Teams'], [use('teams', 120, 100)])).toMatchObject({
      level: 'high',
      share: 1.2,
      reason: '120 people used Teams in the last 30 days, more than its 100 licensed users',
    });
  });

  it('gives no share when no licensed users were read or none are counted', () => {
    expect(of(['Microsoft Teams'], [use('teams', 20, 0)])).toEqual({
      level: 'low',
      workload: 'teams',
      activeUsers: 20,
      reason: '20 people used Teams in the last 30 days',
    });
  });

  it('several workloads: the highest wins and the reason names it', () => {
    const r = of(['Microsoft Teams', 'Viva Engage', 'Microsoft Entra'], [use('teams', 40, 400), use('yammer', 300, 400)]);
    expect(r).toMatchObject({ level: 'high', workload: 'yammer', reason: '300 people used Viva Engage in the last 30 days, 75 % of licensed users' });
    // Outlook: its own users or, when more, everyone with mail activity.
    expect(of(['Outlook'], [use('outlook', 600, 1000), use('exchange', 950, 1000)])).toMatchObject({ level: 'high', workload: 'exchange' });
    // Equal levels: the workload more people used.
    expect(of(['Word', 'Excel'], [use('word', 80, 1000), use('excel', 90, 1000)])).toMatchObject({ level: 'medium', workload: 'excel' });
  });

  it('reads a workload whose report was read when another’s was not', () => {
    expect(of(['Outlook'], [use('outlook', null), use('exchange', 700, 1000)])).toMatchObject({ level: 'high', workload: 'exchange' });
  });

  it('uses the thresholds and window it is given', () => {
    const strict = { highShare: 0.9, highUsers: 5000, mediumShare: 0.5, mediumUsers: 1000 };
    expect(of(['Microsoft Teams'], [use('teams', 800, 1000)], { thresholds: strict }).level).toBe('medium');
    expect(of(['Microsoft Teams'], [use('teams', 800, 1000)], { periodDays: 7 }).reason).toBe(
      '800 people used Teams in the last 7 days, 80 % of licensed users',
    );
    expect(of(['Word'], [{ ...use('word', 320, 1000), periodDays: 1 }]).reason).toBe('320 people used Word on the latest day reported, 32 % of licensed users');
  });
});

describe('relevance without usage', () => {
  it('is Low when the tenant licenses none of the item’s products, read or not', () => {
    const copilot = { level: 'low', reason: 'Not licensed: the tenant has no plan that includes Microsoft Copilot (Microsoft 365)' };
    expect(of(['Microsoft Copilot (Microsoft 365)'], [use('copilot', 0, 0)])).toEqual(copilot);
    expect(of(['Microsoft Copilot (Microsoft 365)'], [], { usageRead: false })).toEqual(copilot);
    expect(of(['Microsoft Intune', 'Microsoft Purview'], []).reason).toBe(
      'Not licensed: the tenant has no plan that includes Microsoft Intune or Microsoft Purview',
    );
  });

  it('reads usage when one of the products is licensed, or a product every tenant has, or licences were not read', () => {
    expect(of(['Microsoft Teams', 'Microsoft Copilot (Microsoft 365)'], [use('teams', 900, 1000)])).toMatchObject({ level: 'high', workload: 'teams' });
    expect(of(['Microsoft Copilot (Microsoft 365)'], [use('copilot', 60, 100)], { licensedProducts: null })).toMatchObject({ level: 'high' });
    expect(of(['Microsoft 365 Copilot Chat'], [], { licensedProducts: [] })).toMatchObject({ level: 'unknown' });
  });

  it('is Unknown until usage is read', () => {
    expect(of(['Microsoft Teams'], [], { usageRead: false })).toEqual({ level: 'unknown', reason: 'Usage not read yet' });
  });

  it('is Unknown when the workload’s report was not read', () => {
    expect(of(['Microsoft Teams'], [use('exchange', 10, 10)])).toEqual({ level: 'unknown', reason: 'Teams usage not read yet' });
    expect(of(['Outlook'], [use('outlook', null)])).toEqual({ level: 'unknown', reason: 'Exchange Online or Outlook usage not read yet' });
  });

  it('is Unknown, naming the service, when no usage report covers it', () => {
    expect(of(['Microsoft Entra'], [use('teams', 10, 10)])).toEqual({ level: 'unknown', reason: 'No usage report covers Microsoft Entra' });
    expect(of(['Microsoft Entra', 'Contoso Widgets'], [])).toEqual({ level: 'unknown', reason: 'No usage report covers Microsoft Entra' });
    expect(of(['Contoso Widgets'], [], { licensedProducts: null })).toEqual({ level: 'unknown', reason: 'Not in the usage mapping yet: Contoso Widgets' });
    expect(of([' ', ''], [])).toEqual({ level: 'unknown', reason: 'The item names no service or product' });
  });
});

describe('relevance across tenants and in lists', () => {
  it('several tenants: the highest in the list', () => {
    expect(highestRelevance(['low', 'unknown', 'medium'])).toBe('medium');
    expect(highestRelevance(['unknown', 'high', 'low'])).toBe('high');
    expect(highestRelevance(['low', 'unknown'])).toBe('low');
    expect(highestRelevance([])).toBe('unknown');
  });

  it('sorts “Relevant to us first”: High, Medium, Low, Unknown', () => {
    expect((['unknown', 'low', 'high', 'medium'] as RelevanceLevel[]).sort(compareRelevance)).toEqual([...RELEVANCE_LEVELS]);
  });

  it('moves triage’s default priority one step up for High and one down for Low', () => {
    expect(RELEVANCE_LEVELS.map(relevancePriority)).toEqual([1, 0, -1, 0]);
  });
});

describe('relevance thresholds', () => {
  it('accepts the defaults', () => {
    expect(relevanceThresholds.parse(DEFAULT_RELEVANCE_THRESHOLDS)).toEqual(DEFAULT_RELEVANCE_THRESHOLDS);
  });

  it.each([
    [{ highShare: 1.5 }, 'highShare must be a share above 0 and at most 1 (0.5 is 50 %)'],
    [{ mediumShare: 0 }, 'mediumShare must be a share above 0 and at most 1 (0.5 is 50 %)'],
    [{ highShare: '0.5' }, 'highShare must be a share above 0 and at most 1 (0.5 is 50 %)'],
    [{ highUsers: 2.5 }, 'highUsers must be a whole number of people, 1 or more'],
    [{ mediumUsers: 0 }, 'mediumUsers must be a whole number of people, 1 or more'],
    [{ mediumUsers: undefined }, 'mediumUsers must be a whole number of people, 1 or more'],
    [{ mediumShare: 0.6 }, 'mediumShare must not be above highShare'],
    [{ mediumUsers: 600 }, 'mediumUsers must not be above highUsers'],
  ])('refuses %j, naming the field', (change, message) => {
    const r = relevanceThresholds.safeParse({ ...DEFAULT_RELEVANCE_THRESHOLDS, ...change });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual([message]);
    expect(r.error?.issues[0].path).toEqual([Object.keys(change)[0]]);
  });

  it('refuses fields it does not know', () => {
    expect(relevanceThresholds.safeParse({ ...DEFAULT_RELEVANCE_THRESHOLDS, lowShare: 0.01 }).success).toBe(false);
  });
});
