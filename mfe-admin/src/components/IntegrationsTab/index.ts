export { IntegrationsTab } from './IntegrationsTab.js';
