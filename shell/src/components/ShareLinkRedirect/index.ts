export { ShareLinkRedirect } from './ShareLinkRedirect.js';
