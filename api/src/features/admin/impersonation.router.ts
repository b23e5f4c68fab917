import { eq } from 'drizzle-orm';
import { Router, type Request } from 'express';
import { impersonateRequest, type ImpersonationStatus } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { impersonationEnabled } from '../../config.js';
import { sessions } from '../../db/schema.js';
import { parse } from '../../http/validate.js';
import { requireRealAdmin } from './admin-guards.js';

/**
 * Role impersonation, a development tool: an admin sees the product as a Moderator or User would. It changes only
 * the caller's own session (sessions.impersonated_role), which the session middleware turns into effective roles.
 *
 * When impersonation is disabled (the default in production) no route is registered at all, so these paths answer
 * the same 404 as any unknown route. Access is checked against the REAL roles: an admin impersonating 'User' must
 * still be able to switch back.
 */
export function createImpersonationRouter(ctx: AppContext): Router {
  const router = Router();
  if (!impersonationEnabled(ctx.config)) return router;

  async function setImpersonation(req: Request, role: string | null): Promise<void> {
    await ctx.db.update(sessions).set({ impersonatedRole: role }).where(eq(sessions.idHash, req.auth!.sessionIdHash));
    ctx.log.info({ userId: req.auth!.user.id, role }, role ? 'role impersonation started' : 'role impersonation cleared');
  }

  router.get('/dev/current-impersonation', requireRealAdmin, (req, res) => {
    const role = req.auth!.impersonatedRole;
    const status: ImpersonationStatus = { isImpersonating: role !== null, impersonatedRole: role };
    res.json(status);
  });

  router.post('/dev/impersonate-role', requireRealAdmin, async (req, res) => {
    const { role } = parse(impersonateRequest, req.body);
    await setImpersonation(req, role);
    res.json({ message: role ? `Now impersonating role: ${role}` : 'Impersonation cleared' });
  });

  router.delete('/dev/clear-impersonation', requireRealAdmin, async (req, res) => {
    await setImpersonation(req, null);
    res.json({ message: 'Impersonation cleared' });
  });

  return router;
}
