/** Error classes the services throw; one middleware maps them to status codes (error-middleware.ts). */

export interface FieldIssue {
  path: string;
  message: string;
}

export class HttpError extends Error {
  readonly status: number = 500;
  readonly issues?: FieldIssue[];
  constructor(message: string, issues?: FieldIssue[]) {
    super(message);
    this.issues = issues;
  }
}

export class InputError extends HttpError {
  override readonly name = 'InputError';
  override readonly status = 400;
}
export class AuthenticationError extends HttpError {
  override readonly name = 'AuthenticationError';
  override readonly status = 401;
  constructor(message = 'Sign in required') {
    super(message);
  }
}
export class NotAllowedError extends HttpError {
  override readonly name = 'NotAllowedError';
  override readonly status = 403;
  constructor(message = 'You do not have permission to do this') {
    super(message);
  }
}
export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  override readonly status = 404;
}
export class MethodNotAllowedError extends HttpError {
  override readonly name = 'MethodNotAllowedError';
  override readonly status = 405;
}
export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  override readonly status = 409;
}
export class RateLimitError extends HttpError {
  override readonly name = 'RateLimitError';
  override readonly status = 429;
}
export class ServiceUnavailableError extends HttpError {
  override readonly name = 'ServiceUnavailableError';
  override readonly status = 503;
}
