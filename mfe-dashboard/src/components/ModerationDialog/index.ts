export { ModerationDialog, type ModerationDialogProps } from './ModerationDialog.js';
export { moderatorActivityFor, noteAction, type ActivityRecord, type ModerationSnapshot } from './moderation-actions.js';
