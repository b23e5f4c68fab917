import { Router } from 'express';
import { idParams } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createUsersService } from './users.service.js';

/** GET /api/admin/app-users and DELETE /api/admin/app-users/{id} (Admin only). */
export function createUsersRouter(ctx: AppContext): Router {
  const service = createUsersService(ctx);
  const router = Router();

  router.get('/admin/app-users', requireAdmin, async (_req, res) => {
    res.json(await service.list());
  });

  router.delete('/admin/app-users/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    const email = await service.remove(id, req.auth!.user.id);
    ctx.log.info({ userId: id, by: req.auth!.user.id }, 'user deleted by an admin');
    res.json({ success: true, message: `User ${email} deleted` });
  });

  return router;
}
