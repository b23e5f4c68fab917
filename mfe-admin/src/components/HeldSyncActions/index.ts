export { HeldSyncActions, type HeldSyncActionsProps } from './HeldSyncActions.js';
