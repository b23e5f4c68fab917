import crypto from 'node:crypto';
import sanitizeHtml from 'sanitize-html';

/**
 * Output sanitising for provider HTML (Message Center bodies, the few roadmap descriptions that carry HTML).
 * Stored text stays exactly as the provider sent it; what we send out is cleaned, and kept beside it as a copy made
 * under SANITIZE_VERSION (`safeCopiesOf`), so a stricter policy later needs no re-sync: raising the version makes
 * the copies again at start. No script/style, no event handlers, no inline styles, only http(s)/mailto links and
 * http(s) images; every link opens in a new tab with rel="noopener noreferrer".
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

/**
 * The version of the output policy: raise it whenever OPTIONS or the plain-text rule of `sanitizeMaybeHtml` change
 * (a test holds a fingerprint of both). A copy made under another version is never sent: the stored text is
 * sanitised as it is sent until the start-up task has made the copy again.
 */
export const SANITIZE_VERSION = 1;

/**
 * Bodies at least this long get a stored copy. PostgreSQL keeps a row's text inside the row until the row passes about
 * 2 KB and moves long text out of line: a copy of a short body would widen every row a search walks, where a long
 * one is stored apart. Short bodies cost little to sanitise as they are sent; long ones hold most of the cost.
 */
export const SAFE_COPY_MIN_CHARS = 2000;

/** An item's provider text as it is sent out (items.body_safe, description_safe, safe_version). */
export interface SafeCopies {
  /** The description sanitised, only when that changes it (an HTML description); null: send it as stored. */
  descriptionSafe: string | null;
  /** The body sanitised; null when there is no body or it is shorter than SAFE_COPY_MIN_CHARS (sanitised as sent). */
  bodySafe: string | null;
  safeVersion: number;
  /** The text they were made from (`safeSourceOf`): a trigger marks copies whose text has moved since. */
  safeSource: string;
}

/** md5 of the description, then of the body (the same the database computes to check the copies). */
export function safeSourceOf(row: { description?: string | null; bodyHtml?: string | null }): string {
  const md5 = (text: string) => crypto.createHash('md5').update(text, 'utf8').digest('hex');
  return md5(row.description ?? '') + md5(row.bodyHtml ?? '');
}

/**
 * Sanitising is the costliest step of answering an item the caches have not seen (a long Message Center body takes
 * about a millisecond), so it is done once, when the text is written, instead of on each answer.
 */
export function safeCopiesOf(row: { description?: string | null; bodyHtml?: string | null }): SafeCopies {
  const description = row.description ? sanitizeMaybeHtml(row.description) : null;
  return {
    descriptionSafe: description !== null && description !== row.description ? description : null,
    bodySafe: row.bodyHtml && row.bodyHtml.length >= SAFE_COPY_MIN_CHARS ? sanitizeForOutput(row.bodyHtml) : null,
    safeVersion: SANITIZE_VERSION,
    safeSource: safeSourceOf(row),
  };
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
