export { ItemDialog, type ItemDialogProps } from './ItemDialog.js';
export { shareUrlOf, roadmapProviderUrl, messageAdminUrl } from './share.js';
