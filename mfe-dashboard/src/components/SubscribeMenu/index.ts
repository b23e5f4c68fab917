export { SubscribeMenu, type SubscribeMenuProps } from './SubscribeMenu.js';
