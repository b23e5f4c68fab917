export { RemoteApp, type RemoteAppProps } from './RemoteApp.js';
