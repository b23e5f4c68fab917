import sanitizeHtml from 'sanitize-html';

/**
 * Output sanitising for provider HTML (Message Center bodies, the few roadmap descriptions that carry HTML).
 * Stored text stays exactly as the provider sent it; only what we send out is cleaned, so a stricter policy later
 * needs no re-sync. No script/style, no event handlers, no inline styles, only http(s)/mailto links and http(s)
 * images; every link opens in a new tab with rel="noopener noreferrer".
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'a',
    'b',
    'i',
    'em',
    'strong',
    'u',
    's',
    'p',
    'br',
    'div',
    'span',
    'ul',
    'ol',
    'li',
    'code',
    'pre',
    'blockquote',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'img',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
    'caption',
    'sup',
    'sub',
    'small',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Drop the text inside these too, not only the tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
  },
};

const LOOKS_LIKE_HTML = /<[a-z!/][^>]*>/i;

/** Sanitised HTML for rendering with innerHTML. */
export function sanitizeForOutput(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * Roadmap descriptions are plain text (with `\n`) except for a few dozen holding HTML. Plain text is returned
 * unchanged (it can hold no tag, so it is also safe as innerHTML); HTML is sanitised.
 */
export function sanitizeMaybeHtml(text: string): string {
  return LOOKS_LIKE_HTML.test(text) ? sanitizeForOutput(text) : text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Plain text of provider HTML (export cells, featured cards): tags removed, entities decoded, spaces collapsed. */
export function htmlToPlainText(value: string | null | undefined): string {
  if (!value) return '';
  let text = value;
  if (LOOKS_LIKE_HTML.test(text)) {
    text = text
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<\s*(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ' ');
    text = text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*|#39);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    });
  }
  return (
    text
      // eslint-disable-next-line no-control-regex -- the vertical tab is removed on purpose
      .replace(/[\u200b\ufeff\u000b]/g, '')
      .replace(/\u00a0/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/ *\n[\s]*/g, '\n')
      .trim()
  );
}
