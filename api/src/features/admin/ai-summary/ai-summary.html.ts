import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from './ai-summary.extractive.js';

const SUMMARY_SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'p',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'b',
    'i',
    'a',
    'br',
    'code',
    'blockquote',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
};

/** Every summary (AI or extractive) leaves the server through this: the admin page renders it as HTML. */
export function sanitizeSummary(html: string): string {
  return sanitizeHtml(html, SUMMARY_SANITIZE).trim();
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>');
}

/**
 * Models asked for HTML still sometimes answer in Markdown or wrap the HTML in a code fence. Fences are dropped;
 * text with no tags at all gets a small Markdown-to-HTML pass (headings, bullets, paragraphs, bold, links).
 */
export function modelOutputToHtml(content: string): string {
  const unfenced = content
    .trim()
    .replace(/^```[a-z]*\s*\n?/i, '')
    .replace(/\n?```\s*$/, '')
    .trim();
  if (/<(p|h[1-6]|ul|ol|li|strong|a|br|div|table)\b/i.test(unfenced)) return unfenced;
  const out: string[] = [];
  let list: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    if (list.length) out.push(`<ul>${list.map((l) => `<li>${inline(l)}</li>`).join('')}</ul>`);
    para = [];
    list = [];
  };
  for (const raw of unfenced.split(/\r?\n/)) {
    const lineText = raw.trim();
    const heading = /^#{1,6}\s+(.*)$/.exec(lineText);
    const bullet = /^(?:[-*•]|\d+[.)])\s+(.*)$/.exec(lineText);
    if (!lineText) flush();
    else if (heading) {
      flush();
      out.push(`<h3>${inline(heading[1] ?? '')}</h3>`);
    } else if (bullet) {
      if (para.length) {
        out.push(`<p>${inline(para.join(' '))}</p>`);
        para = [];
      }
      list.push(bullet[1] ?? '');
    } else {
      if (list.length) flush();
      para.push(lineText);
    }
  }
  flush();
  return out.join('');
}
