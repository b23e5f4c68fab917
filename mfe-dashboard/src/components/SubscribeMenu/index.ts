export { feedUrls, SubscribeMenu, type SubscribeMenuProps } from './SubscribeMenu.js';
