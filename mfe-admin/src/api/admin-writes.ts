import { routes, type ImpersonateRequest, type ProductMappingUpdate, type RoleInput, type TestNotificationRequest } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';

/** Every admin write, typed from the endpoint table. The tabs add toasts and revalidation. */
export const adminWrites = {
  createRole: (body: RoleInput) => callEndpoint(routes.admin.createRole, { body }),
  updateRole: (id: number, body: RoleInput) => callEndpoint(routes.admin.updateRole, { params: { id }, body }),
  deleteRole: (id: number) => callEndpoint(routes.admin.deleteRole, { params: { id } }),
  assignRole: (userId: number, roleId: number) => callEndpoint(routes.admin.assignRole, { body: { userId, roleId } }),
  removeRole: (userId: number, roleId: number) => callEndpoint(routes.admin.unassignRole, { params: { userId, roleId } }),
  deleteUser: (id: number) => callEndpoint(routes.admin.deleteUser, { params: { id } }),
  /** Their API tokens are revoked too unless `revokeTokens` is false. */
  endUserSessions: (id: number, revokeTokens: boolean) =>
    callEndpoint(routes.admin.endUserSessions, { params: { id }, query: revokeTokens ? {} : { keepTokens: 'true' } }),
  resetPasskeys: (id: number, revokeTokens: boolean) =>
    callEndpoint(routes.passkeys.resetOfUser, { params: { id }, query: revokeTokens ? {} : { keepTokens: 'true' } }),

  markContactRead: (id: number) => callEndpoint(routes.admin.markContactRead, { params: { id } }),
  deleteContact: (id: number) => callEndpoint(routes.admin.deleteContact, { params: { id } }),

  initializeProductMappings: () => callEndpoint(routes.admin.initializeProductMappings),
  updateProductMapping: (id: number, body: ProductMappingUpdate) => callEndpoint(routes.admin.updateProductMapping, { params: { id }, body }),
  deleteProductMapping: (id: number) => callEndpoint(routes.admin.deleteProductMapping, { params: { id } }),

  syncRoadmap: () => callEndpoint(routes.sync.syncRoadmap),
  syncMessageCenter: () => callEndpoint(routes.sync.syncMessageCenter),
  syncServiceHealth: () => callEndpoint(routes.sync.syncServiceHealth),
  /** Decisions on a sync the snapshot guard held (its sync-history id). */
  applyHeldSync: (id: number) => callEndpoint(routes.sync.applyHeldSync, { params: { id } }),
  discardHeldSync: (id: number) => callEndpoint(routes.sync.discardHeldSync, { params: { id } }),

  impersonate: (role: ImpersonateRequest['role']) => callEndpoint(routes.admin.impersonate, { body: { role } }),
  clearImpersonation: () => callEndpoint(routes.admin.clearImpersonation),

  sendTestNotification: (body: TestNotificationRequest) => callEndpoint(routes.admin.testNotification, { body }),
  /** reportData is a digest report, an uploaded JSON value, or uploaded text. */
  generateSummary: (reportData: unknown) => callEndpoint(routes.admin.generateSummary, { body: { reportData } }),
};
