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

/** The status each kind of domain failure answers with; a subclass answers as its nearest listed ancestor. */
const STATUS_OF = new Map<abstract new (...args: never[]) => DomainError, number>([
  [InputError, 400],
  [AuthenticationError, 401],
  [NotAllowedError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [RateLimitError, 429],
  [UpstreamError, 502],
  [ServiceUnavailableError, 503],
  [UpstreamTimeoutError, 504],
]);

/** Failures that exist only in HTTP terms (a method or media type the route does not take) carry their status. */
export class HttpError extends DomainError {
  readonly status: number = 500;
}
export class MethodNotAllowedError extends HttpError {
  override readonly name = 'MethodNotAllowedError';
  override readonly status = 405;
}

/** The HTTP status of a domain failure (500 for a kind this layer does not know). */
export function statusOf(err: DomainError): number {
  if (err instanceof HttpError) return err.status;
  for (let proto = Object.getPrototypeOf(err) as object | null; proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const status = STATUS_OF.get(proto.constructor as abstract new (...args: never[]) => DomainError);
    if (status) return status;
  }
  return 500;
}
