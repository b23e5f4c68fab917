export { SafeHtml, type SafeHtmlProps } from './SafeHtml.js';
export { sanitizeHtml } from './sanitize.js';
