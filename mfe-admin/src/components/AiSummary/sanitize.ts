import DOMPurify from 'dompurify';

/**
 * The server already sanitises the summary; the page sanitises again because the HTML is rendered as markup and
 * this app must not trust any answer blindly. Links open in a new tab without access to this page.
 */
export function sanitizeSummaryHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'textarea', 'select', 'img'],
    FORBID_ATTR: ['style'],
  });
  return clean.replace(/<a /g, '<a target="_blank" rel="noopener noreferrer" ');
}
