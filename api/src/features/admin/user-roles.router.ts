import { Router } from 'express';
import { z } from 'zod';
import { assignRoleRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createUserRolesService } from './user-roles.service.js';

const positiveId = (name: string) =>
  z.coerce.number({ error: `${name} must be a positive whole number` }).int(`${name} must be a positive whole number`).positive(`${name} must be a positive whole number`);
const assignmentParams = z.object({ userId: positiveId('userId'), roleId: positiveId('roleId') });

/** GET/POST /api/admin/user-roles and DELETE /api/admin/user-roles/{userId}/{roleId} (Admin only). */
export function createUserRolesRouter(ctx: AppContext): Router {
  const service = createUserRolesService(ctx);
  const router = Router();

  router.get('/admin/user-roles', requireAdmin, async (_req, res) => {
    res.json(await service.list());
  });

  router.post('/admin/user-roles', requireAdmin, async (req, res) => {
    const { userId, roleId } = parse(assignRoleRequest, req.body);
    const { assignment, created } = await service.assign(userId, roleId);
    if (created) ctx.log.info({ userId, roleId, by: req.auth!.user.id }, 'role assigned');
    res.status(created ? 201 : 200).json(assignment);
  });

  router.delete('/admin/user-roles/:userId/:roleId', requireAdmin, async (req, res) => {
    const { userId, roleId } = parse(assignmentParams, req.params);
    const removed = await service.unassign(userId, roleId);
    ctx.log.info({ userId, roleId, by: req.auth!.user.id }, 'role removed');
    res.json({ success: true, message: `Role ${removed.role.name} removed from ${removed.user.email}` });
  });

  return router;
}
