export { AccountMenu } from './AccountMenu.js';
