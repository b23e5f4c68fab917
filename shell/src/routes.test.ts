import { describe, expect, it } from '@jest/globals';
import { SHELL_PAGE_PATHS } from '@radar/contracts';
import { PAGE_ROUTES, routeOf } from './routes.js';

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
    ['/roadmap/4711/more', {}],
    ['/roadmap', {}],
  ])('%s', (pathname, expected) => {
    expect(routeOf(pathname)).toEqual(expected);
  });
});

it('has a page for every shell path of the site routes the api answers by', () => {
  expect(PAGE_ROUTES.map((route) => route.path)).toEqual([...SHELL_PAGE_PATHS]);
});
