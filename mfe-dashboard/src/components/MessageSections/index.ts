export { MessageBody, RolloutTiming, TenantStatus } from './MessageSections.js';
