import { describe, expect, it } from '@jest/globals';
import { routeOf } from './routes.js';

describe('routeOf: what index.ts starts loading for the first screen', () => {
  it.each([
    ['/', { page: 'landing' }],
    ['/profile', { page: 'profile' }],
    ['/notifications/', { page: 'notifications' }],
    ['/contact', { page: 'contact' }],
    ['/privacy', { page: 'privacy' }],
    ['/terms', { page: 'terms' }],
    ['/dashboard', { remote: 'dashboard' }],
    ['/dashboard/roadmap/4711', { remote: 'dashboard' }],
    ['/roadmap/4711', { remote: 'dashboard' }],
    ['/message/MC123456', { remote: 'dashboard' }],
    ['/weekly-digest', { remote: 'digest' }],
    ['/admin', { remote: 'admin' }],
    ['/admin/users', { remote: 'admin' }],
    ['/test-moderator', { remote: 'admin' }],
    ['/dashboards', {}],
    ['/no/such/page', {}],
  ])('%s', (pathname, expected) => {
    expect(routeOf(pathname)).toEqual(expected);
  });
});
