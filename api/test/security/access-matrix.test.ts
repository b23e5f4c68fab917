import { describe, expect, it } from '@jest/globals';
import { endpointList, type Access } from '@radar/contracts';
import { call, CALLERS, urlOf, useSecurityContext, type Caller } from './harness.js';

/**
 * ASVS V4 (access control), generated from the endpoint table: every route, as a guest, a User, a Moderator, an Admin
 * and an Admin impersonating User. A route added to the table is in this matrix without anyone writing a test.
 * Refusals must come before the request is looked at: they are asserted with malformed params and a malformed JSON
 * body, which would answer 400 if anything were parsed first.
 */
const suite = useSecurityContext();

type Expected = 401 | 403 | 'allowed';

export function expectedAccess(access: Access, caller: Caller): Expected {
  if (access === 'public') return 'allowed';
  if (caller === 'guest') return 401;
  if (access === 'signedIn') return 'allowed';
  const effective = caller === 'Admin as User' ? 'User' : caller;
  if (access === 'moderator') return effective === 'User' ? 403 : 'allowed';
  if (access === 'admin') return effective === 'Admin' ? 'allowed' : 403;
  // realAdmin: the roles really held, so an admin impersonating User can switch back.
  return caller === 'Admin' || caller === 'Admin as User' ? 'allowed' : 403;
}

const cases = endpointList.flatMap((endpoint) => CALLERS.map((caller) => [`${endpoint.method} ${endpoint.path}`, caller, endpoint] as const));

describe('the access matrix covers the whole table', () => {
  it('has every access level known and every route in it', () => {
    expect(new Set(endpointList.map((e) => e.access))).toEqual(new Set(['public', 'signedIn', 'moderator', 'admin', 'realAdmin']));
    expect(cases).toHaveLength(endpointList.length * CALLERS.length);
  });
});

describe.each(cases)('%s as %s', (_route, caller, endpoint) => {
  const expected = expectedAccess(endpoint.access, caller);

  if (expected === 'allowed') {
    it('is allowed (neither 401 nor 403, and no server error)', async () => {
      const req = call(suite.t, endpoint.method, urlOf(endpoint, true), await suite.users.cookie(caller));
      const res = endpoint.body ? await req.send({}) : await req;
      // The answer's text is part of the failure message, so a wrong status says why.
      expect([401, 403, 500].includes(res.status) ? `${res.status}: ${res.text.slice(0, 300)}` : 'allowed').toBe('allowed');
    });
  } else {
    it(`is refused with ${expected} before anything is parsed`, async () => {
      const req = call(suite.t, endpoint.method, urlOf(endpoint, false), await suite.users.cookie(caller));
      const res = endpoint.body ? await req.set('Content-Type', 'application/json').send('{"malformed":') : await req;
      expect(res.status).toBe(expected);
      expect(res.body.error.name).toBe(expected === 401 ? 'AuthenticationError' : 'NotAllowedError');
    });
  }
});
