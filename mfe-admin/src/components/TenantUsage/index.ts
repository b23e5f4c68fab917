export { UsageDialog } from './UsageDialog.js';
export type { TenantUsagePayload } from './TenantUsageDialog.js';
