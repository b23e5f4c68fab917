export { DigestTab } from './DigestTab.js';
