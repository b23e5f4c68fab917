import { Router } from 'express';
import { idParams, roleInput } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createRolesService } from './roles.service.js';

/** GET/POST/PUT/DELETE /api/admin/roles (Admin only). GET is also the admin page's access check. */
export function createRolesRouter(ctx: AppContext): Router {
  const service = createRolesService(ctx);
  const router = Router();

  router.get('/admin/roles', requireAdmin, async (_req, res) => {
    res.json(await service.list());
  });

  router.post('/admin/roles', requireAdmin, async (req, res) => {
    const input = parse(roleInput, req.body);
    const role = await service.create(input);
    ctx.log.info({ roleId: role.id, by: req.auth!.user.id }, 'role created');
    res.status(201).json(role);
  });

  router.put('/admin/roles/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    const input = parse(roleInput, req.body);
    res.json(await service.update(id, input));
  });

  router.delete('/admin/roles/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    const role = await service.remove(id);
    ctx.log.info({ roleId: id, by: req.auth!.user.id }, 'role deleted');
    res.json({ success: true, message: `Role ${role.name} deleted` });
  });

  return router;
}
