import type { Request, Response } from 'express';
import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { impersonationEnabled } from '../../../config.js';
import type { RequestAuth } from '../../../http/auth.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { clientOf } from '../../auth/auth.endpoints.js';
import { setSessionCookie } from '../../auth/session-cookie.js';

/**
 * Role impersonation, a development tool: an admin sees the product as a Moderator or User would. It changes only
 * the caller's own session (sessions.impersonated_role), which the session middleware turns into effective roles.
 * Starting or ending it is a change of privileges, so the session is rotated: a new token in the answer's cookie,
 * the old one ends at once.
 *
 * When impersonation is disabled (the default in production) these routes are not mounted at all, so they answer the
 * same 404 as an unknown route.
 * Access is checked against the REAL roles (`realAdmin` in the table): an admin impersonating 'User' must still be
 * able to switch back.
 */
export function createImpersonationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const enabled = impersonationEnabled(ctx.config);

  async function setImpersonation(auth: RequestAuth, role: string | null, req: Request, res: Response): Promise<void> {
    const rotated = await ctx.services.auth.sessions.rotate(auth, clientOf(req), role);
    setSessionCookie(res, ctx.publicUrl, rotated.token, rotated.maxAgeMs);
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
      async ({ auth, body, req, res }) => {
        await setImpersonation(auth, body.role, req, res);
        return { message: body.role ? `Now impersonating role: ${body.role}` : 'Impersonation cleared' };
      },
      { enabled },
    ),
    implement(
      endpoints.admin.clearImpersonation,
      async ({ auth, req, res }) => {
        await setImpersonation(auth, null, req, res);
        return { message: 'Impersonation cleared' };
      },
      { enabled },
    ),
  ];
}
