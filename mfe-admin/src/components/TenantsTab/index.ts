export { TenantsTab } from './TenantsTab.js';
