import { describe, expect, it } from '@jest/globals';
import { sitePathOf } from './site-routes.js';

describe('sitePathOf', () => {
  it.each([
    ['/', { kind: 'page', path: '/' }],
    ['/terms/', { kind: 'page', path: '/terms' }],
    ['/dashboard', { kind: 'remote', remote: 'dashboard', subPath: false }],
    ['/dashboard/', { kind: 'remote', remote: 'dashboard', subPath: false }],
    ['/dashboard/nowhere', { kind: 'remote', remote: 'dashboard', subPath: true }],
    ['/weekly-digest/x/y', { kind: 'remote', remote: 'digest', subPath: true }],
    ['/test-moderator', { kind: 'remote', remote: 'admin', subPath: false }],
    ['/roadmap/412345', { kind: 'share-link' }],
    ['/message/MC123', { kind: 'share-link' }],
  ])('%s is a page of the site', (path, expected) => {
    expect(sitePathOf(path)).toEqual(expected);
  });

  it.each(['/dashboards', '/test-moderator/x', '/roadmap', '/roadmap/', '/roadmap/1/2', '/favicon.ico', '/this/route/does-not-exist'])(
    '%s is unknown',
    (path) => {
      expect(sitePathOf(path)).toEqual({ kind: 'unknown' });
    },
  );
});
