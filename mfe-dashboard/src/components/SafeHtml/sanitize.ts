import DOMPurify from 'dompurify';

let hooked = false;

/** Links in item bodies open in a new tab without giving the page access to ours. */
function ensureLinkHook() {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/**
 * Message bodies come from the provider as HTML. DOMPurify drops scripts, event handlers and javascript: URLs;
 * we also drop forms, styles and frames, which have no place in an announcement.
 */
export function sanitizeHtml(html: string): string {
  ensureLinkHook();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'textarea', 'select'],
    FORBID_ATTR: ['style'],
  });
}
