import { endpoints, type ImpersonateRequest, type ProductMappingUpdate, type RoleInput, type TestNotificationRequest } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';

/** Every admin write, typed from the endpoint table (spec 02 §7). The tabs add toasts and revalidation. */
export const adminWrites = {
  createRole: (body: RoleInput) => callEndpoint(endpoints.admin.createRole, { body }),
  updateRole: (id: number, body: RoleInput) => callEndpoint(endpoints.admin.updateRole, { params: { id }, body }),
  deleteRole: (id: number) => callEndpoint(endpoints.admin.deleteRole, { params: { id } }),
  assignRole: (userId: number, roleId: number) => callEndpoint(endpoints.admin.assignRole, { body: { userId, roleId } }),
  removeRole: (userId: number, roleId: number) => callEndpoint(endpoints.admin.unassignRole, { params: { userId, roleId } }),
  deleteUser: (id: number) => callEndpoint(endpoints.admin.deleteUser, { params: { id } }),

  markContactRead: (id: number) => callEndpoint(endpoints.admin.markContactRead, { params: { id } }),
  deleteContact: (id: number) => callEndpoint(endpoints.admin.deleteContact, { params: { id } }),

  initializeProductMappings: () => callEndpoint(endpoints.admin.initializeProductMappings),
  updateProductMapping: (id: number, body: ProductMappingUpdate) => callEndpoint(endpoints.admin.updateProductMapping, { params: { id }, body }),
  deleteProductMapping: (id: number) => callEndpoint(endpoints.admin.deleteProductMapping, { params: { id } }),

  syncRoadmap: () => callEndpoint(endpoints.admin.syncRoadmap),
  syncMessageCenter: () => callEndpoint(endpoints.admin.syncMessageCenter),
  /** Decisions on a sync the snapshot guard held (its sync-history id). */
  applyHeldSync: (id: number) => callEndpoint(endpoints.admin.applyHeldSync, { params: { id } }),
  discardHeldSync: (id: number) => callEndpoint(endpoints.admin.discardHeldSync, { params: { id } }),

  impersonate: (role: ImpersonateRequest['role']) => callEndpoint(endpoints.admin.impersonate, { body: { role } }),
  clearImpersonation: () => callEndpoint(endpoints.admin.clearImpersonation),

  sendTestNotification: (body: TestNotificationRequest) => callEndpoint(endpoints.admin.testNotification, { body }),
  /** reportData is a digest report, an uploaded JSON value, or uploaded text (spec 02 §5). */
  generateSummary: (reportData: unknown) => callEndpoint(endpoints.admin.generateSummary, { body: { reportData } }),
};
