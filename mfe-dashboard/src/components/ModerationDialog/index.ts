export { ModerationDialog, type ModerationDialogProps } from './ModerationDialog.js';
export { deriveModeratorActions, noteAction, type DerivedAction, type ModerationSnapshot } from './moderation-actions.js';
