import type { RequestHandler } from 'express';

/**
 * Handlers run in order as one middleware: one router layer (one path match, one prefix trim) instead of one per
 * handler, for the chain every /api request runs. A handler's error, thrown, rejected or passed to `next`, ends the
 * series and goes to Express's error handling as it would from separate layers.
 */
export function series(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const result = handler(req, res, step) as unknown;
        if (result instanceof Promise) result.catch(step);
      } catch (error) {
        next(error);
      }
    };
    step();
  };
}
