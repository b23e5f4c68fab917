import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../../http/endpoints.js';
import { renewOwnSessionAfterRoleChange } from '../../auth/auth.endpoints.js';
import { createUserRolesService } from './user-roles.service.js';

/**
 * GET/POST /api/admin/user-roles and DELETE /api/admin/user-roles/{userId}/{roleId} (Admin only). A role change ends the
 * affected user's sessions (they sign in again with the new roles); a caller who changed their own roles gets a new
 * session in the answer.
 */
export function createUserRolesEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createUserRolesService(ctx);
  return [
    implement(endpoints.admin.userRoles, () => service.list()),
    implement(endpoints.admin.assignRole, async ({ body: { userId, roleId }, auth, req, res }) => {
      const { assignment, created } = await service.assign(userId, roleId);
      if (created) ctx.log.info({ userId, roleId, by: auth.user.id }, 'role assigned');
      await renewOwnSessionAfterRoleChange(ctx, auth, req, res);
      return Reply.status(created ? 201 : 200, assignment);
    }),
    implement(endpoints.admin.unassignRole, async ({ params: { userId, roleId }, auth, req, res }) => {
      const removed = await service.unassign(userId, roleId);
      ctx.log.info({ userId, roleId, by: auth.user.id }, 'role removed');
      await renewOwnSessionAfterRoleChange(ctx, auth, req, res);
      return { success: true, message: `Role ${removed.role.name} removed from ${removed.user.email}` };
    }),
  ];
}
