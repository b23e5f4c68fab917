import { describe, expect, it } from '@jest/globals';
import {
  AuthenticationError,
  ConflictError,
  DomainError,
  InputError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  UpstreamError,
  UpstreamTimeoutError,
} from '../lib/errors.js';
import { AiTimeoutError, AiUpstreamError } from '../features/admin/ai-summary/ai-summary.client.js';
import { MethodNotAllowedError, statusOf } from './errors.js';

describe('statusOf: the HTTP status of a domain failure', () => {
  it('maps each kind to its status', () => {
    const cases: [DomainError, number][] = [
      [new InputError('x'), 400],
      [new AuthenticationError(), 401],
      [new NotAllowedError(), 403],
      [new NotFoundError('x'), 404],
      [new ConflictError('x'), 409],
      [new RateLimitError('x'), 429],
      [new UpstreamError('x'), 502],
      [new ServiceUnavailableError('x'), 503],
      [new UpstreamTimeoutError('x'), 504],
    ];
    expect(cases.map(([err]) => statusOf(err))).toEqual(cases.map(([, status]) => status));
  });

  it('answers a subclass as its nearest listed ancestor, keeping its own name', () => {
    expect([statusOf(new AiUpstreamError('x')), statusOf(new AiTimeoutError())]).toEqual([502, 504]);
    expect(new AiTimeoutError().name).toBe('AiTimeoutError');
  });

  it('answers 500 for a kind it does not know, and an HTTP-only failure with its own status', () => {
    class Unlisted extends DomainError {}
    expect(statusOf(new Unlisted('x'))).toBe(500);
    expect(statusOf(new MethodNotAllowedError('x'))).toBe(405);
  });
});
