import type { RequestHandler } from 'express';
import { HttpError } from './errors.js';

export class UnsupportedMediaTypeError extends HttpError {
  override readonly name = 'UnsupportedMediaTypeError';
  override readonly status = 415;
}

/**
 * Endpoints that take a body accept JSON only. A cross-site HTML form can post `text/plain` whose text is JSON without
 * a CORS preflight; refusing every non-JSON body (415) closes that door on top of the Origin check and SameSite
 * cookies. Endpoints without a body (one-click unsubscribe, the sign-out form) are not affected.
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.is('application/json')) return next();
  next(new UnsupportedMediaTypeError('Send the request body as JSON (Content-Type: application/json)'));
};
