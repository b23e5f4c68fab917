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
