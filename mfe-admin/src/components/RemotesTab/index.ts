export { RemotesTab } from './RemotesTab.js';
export { RemoteUrlDialog } from './RemoteUrlDialog.js';
