import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { freshFactorGuard } from '../../http/fresh-factor.js';
import { NotFoundError } from '../../lib/errors.js';
import { createTokensRepo } from './tokens.repo.js';

/** /api/tokens: the signed-in user's personal API tokens (created on /profile). See docs/api.md#personal-api-tokens. */
export function createTokensEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createTokensRepo(ctx.db);
  // A token outlives the session that made it: an admin confirms with a recent passkey.
  const fresh = freshFactorGuard(ctx);
  return [
    implement(endpoints.tokens.list, ({ auth }) => repo.listOwn(auth.user.id)),
    implement(endpoints.tokens.create, ({ body, auth }) => ctx.services.tokens.create(auth.user, body), { middleware: [fresh.middleware()] }),
    implement(endpoints.tokens.revoke, async ({ params: { id }, auth }) => {
      if (!(await repo.revokeOwn(auth.user.id, id))) throw new NotFoundError(`API token ${id} not found`);
      return { success: true, message: 'Token revoked' };
    }),
  ];
}
