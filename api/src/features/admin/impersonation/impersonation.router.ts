import { eq } from 'drizzle-orm';
import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { impersonationEnabled } from '../../../config.js';
import { sessions } from '../../../db/schema.js';
import type { RequestAuth } from '../../../http/auth.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';

/**
 * Role impersonation, a development tool: an admin sees the product as a Moderator or User would. It changes only
 * the caller's own session (sessions.impersonated_role), which the session middleware turns into effective roles.
 *
 * When impersonation is disabled (the default in production) these routes are not mounted at all, so they answer the
 * same 404 as an unknown route.
 * Access is checked against the REAL roles (`realAdmin` in the table): an admin impersonating 'User' must still be
 * able to switch back.
 */
export function createImpersonationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const enabled = impersonationEnabled(ctx.config);

  async function setImpersonation(auth: RequestAuth, role: string | null): Promise<void> {
    await ctx.db.update(sessions).set({ impersonatedRole: role }).where(eq(sessions.idHash, auth.sessionIdHash));
    ctx.log.info({ userId: auth.user.id, role }, role ? 'role impersonation started' : 'role impersonation cleared');
  }

  return [
    implement(
      endpoints.admin.currentImpersonation,
      ({ auth }) => ({ isImpersonating: auth.impersonatedRole !== null, impersonatedRole: auth.impersonatedRole }),
      { enabled },
    ),
    implement(
      endpoints.admin.impersonate,
      async ({ auth, body }) => {
        await setImpersonation(auth, body.role);
        return { message: body.role ? `Now impersonating role: ${body.role}` : 'Impersonation cleared' };
      },
      { enabled },
    ),
    implement(
      endpoints.admin.clearImpersonation,
      async ({ auth }) => {
        await setImpersonation(auth, null);
        return { message: 'Impersonation cleared' };
      },
      { enabled },
    ),
  ];
}
