export { RoleManagement } from './RoleManagement.js';
export { parsePermissions } from './RoleFormDialog.js';
