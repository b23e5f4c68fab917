export { SubscribeToggle, type SubscribeToggleProps } from './SubscribeToggle.js';
