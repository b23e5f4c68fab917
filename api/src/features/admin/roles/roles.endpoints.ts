import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation, implementCallerRead } from '../../../http/endpoints.js';
import { renewOwnSessionAfterRoleChange } from '../../auth/auth.endpoints.js';
import { createRolesService } from './roles.service.js';

/** GET/POST/PUT/DELETE /api/admin/roles (Admin only). GET is also the admin page's access check. */
export function createRolesEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createRolesService(ctx);
  return [
    implementCallerRead(endpoints.admin.roles, () => service.list()),
    implement(endpoints.admin.createRole, async ({ body, auth }) => {
      const role = await service.create(body);
      ctx.log.info({ roleId: role.id, by: auth.user.id }, 'role created');
      return role;
    }),
    implement(endpoints.admin.updateRole, ({ params, body }) => service.update(params.id, body)),
    // Deleting a role removes it from its holders: their sessions end like on any role change.
    implement(endpoints.admin.deleteRole, async ({ params: { id }, auth, req, res }) => {
      const role = await service.remove(id);
      ctx.log.info({ roleId: id, by: auth.user.id }, 'role deleted');
      await renewOwnSessionAfterRoleChange(ctx, auth, req, res);
      return { success: true, message: `Role ${role.name} deleted` };
    }),
  ];
}
