import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '@radar/contracts';
import { relevanceThresholdsOf } from '../../config-relevance.js';
import { ConfigError, loadConfig } from '../../config.js';

describe('the relevance thresholds from the configuration', () => {
  it('are the defaults when no key is set', () => {
    expect(relevanceThresholdsOf(loadConfig({}))).toEqual(DEFAULT_RELEVANCE_THRESHOLDS);
  });

  it('take each key', () => {
    const config = loadConfig({ RELEVANCE_HIGH_SHARE: '0.6', RELEVANCE_HIGH_USERS: '1000', RELEVANCE_MEDIUM_SHARE: '0.2', RELEVANCE_MEDIUM_USERS: '100' });
    expect(relevanceThresholdsOf(config)).toEqual({ highShare: 0.6, highUsers: 1000, mediumShare: 0.2, mediumUsers: 100 });
  });

  it('stop the start on a bad value, naming the key', () => {
    expect(() => loadConfig({ RELEVANCE_HIGH_SHARE: '50' })).toThrow(ConfigError);
    expect(() => loadConfig({ RELEVANCE_HIGH_SHARE: '50' })).toThrow(/RELEVANCE_HIGH_SHARE: must be a share above 0 and at most 1/);
    expect(() => loadConfig({ RELEVANCE_HIGH_USERS: '2.5' })).toThrow(/RELEVANCE_HIGH_USERS: must be a whole number of people/);
    expect(() => loadConfig({ RELEVANCE_MEDIUM_USERS: 'many' })).toThrow(/RELEVANCE_MEDIUM_USERS/);
  });

  it('stop the start when Medium is above High, naming both keys', () => {
    expect(() => loadConfig({ RELEVANCE_MEDIUM_SHARE: '0.7' })).toThrow(/RELEVANCE_MEDIUM_SHARE: must not be above RELEVANCE_HIGH_SHARE/);
    expect(() => loadConfig({ RELEVANCE_HIGH_USERS: '40' })).toThrow(/RELEVANCE_MEDIUM_USERS: must not be above RELEVANCE_HIGH_USERS/);
  });
});
