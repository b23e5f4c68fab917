import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { createUsersService } from './users.service.js';

/** GET /api/admin/app-users and DELETE /api/admin/app-users/{id} (Admin only). */
export function createUsersEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createUsersService(ctx);
  return [
    implement(endpoints.admin.users, () => service.list()),
    // Their API tokens are revoked too unless the admin keeps them: whoever took over the account may have made some.
    implement(endpoints.admin.endUserSessions, async ({ params: { id }, query, auth }) => {
      const email = await service.emailOf(id);
      const { sessions: ended, revokedTokens } = await ctx.services.auth.sessions.endAll(id, { revokeTokens: !query.keepTokens });
      ctx.log.info({ userId: id, by: auth.user.id, sessions: ended, revokedTokens }, "a user's sessions ended by an admin");
      const tokens = revokedTokens ? ` and revoked ${revokedTokens} API ${revokedTokens === 1 ? 'token' : 'tokens'}` : '';
      return { success: true, message: `Ended ${ended} ${ended === 1 ? 'session' : 'sessions'} of ${email}${tokens}`, ended, revokedTokens };
    }),
    implement(endpoints.admin.deleteUser, async ({ params: { id }, auth }) => {
      const email = await service.remove(id, auth.user.id);
      ctx.log.info({ userId: id, by: auth.user.id }, 'user deleted by an admin');
      return { success: true, message: `User ${email} deleted` };
    }),
  ];
}
