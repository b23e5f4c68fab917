import { ROLE_NAMES } from '@radar/contracts';
import { hasRole, type RequestAuth } from '../../http/auth.js';
import { InputError, NotAllowedError } from '../../lib/errors.js';
import type { Viewer } from './channels.repo.js';

/**
 * The caller as the alert repos see them: admins also manage the organisation's searches and channels, once their
 * session's second factor is satisfied (without it they are treated as the signed-in user they also are).
 */
export const viewerOf = (auth: RequestAuth): Viewer => ({
  userId: auth.user.id,
  isAdmin: hasRole(auth, ROLE_NAMES.admin) && (auth.secondFactor?.state ?? 'ok') === 'ok',
});

export function requireScope(viewer: Viewer, scope: 'personal' | 'organisation', what: string): void {
  if (scope === 'organisation' && !viewer.isAdmin) throw new NotAllowedError(`Only admins can add ${what} for the organisation`);
}

/** A 400 naming one field, in the shape of every validation error. */
export const fieldError = (path: string, message: string) => new InputError(`${path}: ${message}`, [{ path, message }]);
