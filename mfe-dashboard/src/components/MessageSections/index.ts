export { AttachmentList, MessageBody, RolloutTiming, TenantStatus } from './MessageSections.js';
