/**
 * Failures of the product's rules, thrown by services, repositories and endpoint handlers. They say what went wrong
 * in words a user can read and know nothing of HTTP: the HTTP layer maps each class to a status (http/errors.ts),
 * and a job or the CLI reports them as they are. The class name is part of the API: answers carry it as `error.name`.
 */

export interface FieldIssue {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly issues?: FieldIssue[];
  constructor(message: string, issues?: FieldIssue[]) {
    super(message);
    this.issues = issues;
  }
}

/** The input breaks a rule; `issues` names each field. */
export class InputError extends DomainError {
  override readonly name: string = 'InputError';
}
/** Nobody is signed in, or the credential is wrong or expired. */
export class AuthenticationError extends DomainError {
  override readonly name: string = 'AuthenticationError';
  constructor(message = 'Sign in required') {
    super(message);
  }
}
/** The caller is known and may not do this. */
export class NotAllowedError extends DomainError {
  override readonly name: string = 'NotAllowedError';
  constructor(message = 'You do not have permission to do this') {
    super(message);
  }
}
export class NotFoundError extends DomainError {
  override readonly name: string = 'NotFoundError';
}
/** The request is valid but clashes with the current state (a duplicate, the last admin, a sync already running). */
export class ConflictError extends DomainError {
  override readonly name: string = 'ConflictError';
}
/** Too many attempts; the message says when to try again (and `retryAfterSeconds`, when set, becomes Retry-After). */
export class RateLimitError extends DomainError {
  override readonly name: string = 'RateLimitError';
  retryAfterSeconds?: number;
}
/** A part the product needs is not set up or not available now (no Graph credentials, a full queue). */
export class ServiceUnavailableError extends DomainError {
  override readonly name: string = 'ServiceUnavailableError';
}
/** A service we call answered with an error. */
export class UpstreamError extends DomainError {
  override readonly name: string = 'UpstreamError';
}
/** A service we call did not answer in time. */
export class UpstreamTimeoutError extends DomainError {
  override readonly name: string = 'UpstreamTimeoutError';
}
