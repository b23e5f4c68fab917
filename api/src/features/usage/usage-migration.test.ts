import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installationBefore, type OldInstallation } from '../../../test/migrations.js';

/**
 * Upgrading an installation that read usage before the apps' 30-day counts: its daily counts stay, and a day's
 * 30-day count of an app is kept beside that day's daily count (the key now holds the window).
 */
let old: OldInstallation;
beforeAll(async () => {
  old = await installationBefore('0052_tenant_usage_windows');
});
afterAll(() => old.drop());

describe('upgrading an installation with usage counts', () => {
  it('keeps the daily counts and takes a 30-day count of the same day and app beside them', async () => {
    const { rows } = await old.pool.query<{ id: number }>(
      `INSERT INTO tenants (name, directory_id) VALUES ('Contoso', '11111111-1111-4111-8111-111111111111') RETURNING id`,
    );
    const tenant = rows[0]!.id;
    await old.pool.query(
      `INSERT INTO tenant_usage (tenant_id, report_date, workload, active_users, period_days, read_at)
       VALUES ($1, '2026-11-24', 'word', 300, 1, now()), ($1, '2026-11-25', 'word', 320, 1, now()), ($1, '2026-11-25', 'teams', 950, 30, now())`,
      [tenant],
    );

    await old.upgrade();

    await old.pool.query(
      `INSERT INTO tenant_usage (tenant_id, report_date, workload, active_users, period_days, read_at) VALUES ($1, '2026-11-25', 'word', 420, 30, now())`,
      [tenant],
    );
    const { rows: kept } = await old.pool.query(
      `SELECT to_char(report_date, 'YYYY-MM-DD') AS report_date, workload, period_days, active_users FROM tenant_usage WHERE tenant_id = $1 ORDER BY workload, report_date, period_days`,
      [tenant],
    );
    expect(kept).toEqual([
      { report_date: '2026-11-25', workload: 'teams', period_days: 30, active_users: 950 },
      { report_date: '2026-11-24', workload: 'word', period_days: 1, active_users: 300 },
      { report_date: '2026-11-25', workload: 'word', period_days: 1, active_users: 320 },
      { report_date: '2026-11-25', workload: 'word', period_days: 30, active_users: 420 },
    ]);
  });
});
