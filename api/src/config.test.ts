import { describe, expect, it } from '@jest/globals';
import { ConfigError, impersonationEnabled, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe('.data');
    expect(c.ADMIN_EMAILS).toEqual([]);
    expect(c.DIGEST_SEND_HOUR).toBe(8);
    expect(impersonationEnabled(c)).toBe(false);
    expect(c.ROADMAP_SYNC_INTERVAL_MS).toBe(3_600_000);
    expect(c.ROADMAP_USER_AGENT).toMatch(/^Mozilla\/5\.0 \(Windows NT/);
    expect(c.ROADMAP_RSS_URL).toBe('https://www.microsoft.com/releasecommunications/api/v2/M365/rss');
    expect(c.SYNC_MAX_REMOVED_PERCENT).toBe(10);
    expect([c.DB_POOL_MAX, c.DB_ACQUIRE_TIMEOUT_MS, c.DB_STATEMENT_TIMEOUT_MS]).toEqual([10, 5000, 30000]);
    expect([c.EXPORT_MAX_PER_CLIENT, c.EXPORT_MAX_CONCURRENT, c.EXPORT_IDLE_TIMEOUT_MS]).toEqual([2, 4, 30000]);
    expect([c.SHUTDOWN_TIMEOUT_MS, c.MAIL_RETRY_BASE_MS]).toEqual([20000, 60000]);
  });

  it('validates the feed, guard and delivery keys', () => {
    expect(loadConfig({ ROADMAP_RSS_URL: 'off' }).ROADMAP_RSS_URL).toBe('off');
    expect(() => loadConfig({ ROADMAP_RSS_URL: 'not a url' })).toThrow(/ROADMAP_RSS_URL/);
    expect(() => loadConfig({ SYNC_MAX_REMOVED_PERCENT: '101' })).toThrow(/SYNC_MAX_REMOVED_PERCENT/);
    expect(() => loadConfig({ ROADMAP_USER_AGENT: ' ' })).toThrow(/ROADMAP_USER_AGENT/);
    expect(() => loadConfig({ DB_ACQUIRE_TIMEOUT_MS: '0' })).toThrow(/DB_ACQUIRE_TIMEOUT_MS/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_POOL_MAX: '6', EXPORT_MAX_CONCURRENT: '5' })).toThrow(/EXPORT_MAX_CONCURRENT: must leave at least 2 of the DB_POOL_MAX \(6\)/);
  });

  it('parses lists and turns impersonation on in development', () => {
    const c = loadConfig({ ADMIN_EMAILS: ' A@x.com, b@y.org ', NODE_ENV: 'development' });
    expect(c.ADMIN_EMAILS).toEqual(['a@x.com', 'b@y.org']);
    expect(impersonationEnabled(c)).toBe(true);
  });

  it('names every bad key', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'nope' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'nope' });
    } catch (e) {
      expect((e as Error).message).toMatch(/PORT/);
      expect((e as Error).message).toMatch(/DATABASE_URL/);
    }
  });

  it('requires the Graph credentials together', () => {
    expect(() => loadConfig({ GRAPH_TENANT_ID: 't' })).toThrow(/must be set together/);
  });
});
