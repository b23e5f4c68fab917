import type http from 'node:http';

/**
 * Scripted misbehaviour of the replay server: what real upstreams do on a bad day. Each applies to one
 * target, optionally one Graph page, and a number of requests.
 */
export type Target = 'roadmap' | 'rss' | 'v2' | 'token' | 'messages' | 'attachments';
export interface Failure {
  target: Target;
  kind:
    | 'status' // this HTTP status (with Retry-After when given)
    | 'malformed' // 200, JSON cut mid-string
    | 'hang' // never answers
    | 'no-value' // Graph page without `value`
    | 'not-array' // 200, a JSON object where the array belongs
    | 'item-without-id'
    | 'html' // 200 text/html: a captive portal or a CDN error page
    | 'truncated' // 200, the first half of the real body
    | 'empty' // 200, a well-formed empty feed
    | 'half' // 200, a well-formed feed with half of the items
    | 'stall' // headers and the first part of the body, then nothing
    | 'slow'; // the real body, after `delayMs`
  status?: number;
  retryAfter?: string;
  delayMs?: number;
  /** Messages only: 1-based page; omit for every page. */
  page?: number;
  /** How many requests fail; omit for all. */
  times?: number;
}

export const HTML_PAGE = '<!DOCTYPE html><html><head><title>Access Denied</title></head><body><h1>Access Denied</h1><p>Reference #18.1a2b3c</p></body></html>';

/** Half of the items of a feed body, in the same format (JSON array or RSS channel). */
function halfOf(body: string, rss: boolean): string {
  if (!rss) {
    const items = JSON.parse(body.replace(/^\ufeff/, '')) as unknown[];
    return JSON.stringify(items.slice(0, Math.ceil(items.length / 2)));
  }
  const items = body.match(/<item>[\s\S]*?<\/item>/g) ?? [];
  const start = body.indexOf('<item>');
  const end = body.lastIndexOf('</item>') + '</item>'.length;
  return body.slice(0, start) + items.slice(0, Math.ceil(items.length / 2)).join('') + body.slice(end);
}

function emptyOf(body: string, rss: boolean): string {
  if (!rss) return '[]';
  return body.slice(0, body.indexOf('<item>')) + body.slice(body.lastIndexOf('</item>') + '</item>'.length);
}

/**
 * Answers a feed request (roadmap JSON or RSS) the failing way; `body` is what would have been sent. Returns true
 * when the request is handled (a hang and a stall handle it by never finishing).
 */
export function answerFeedFailure(f: Failure, res: http.ServerResponse, body: string, rss: boolean): boolean {
  const type = rss ? 'application/rss+xml; charset=utf-8' : 'application/json; charset=utf-8';
  switch (f.kind) {
    case 'hang':
      return true;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
      return true;
    case 'truncated':
      res.writeHead(200, { 'content-type': type }).end(body.slice(0, Math.floor(body.length / 2)));
      return true;
    case 'empty':
      res.writeHead(200, { 'content-type': type }).end(emptyOf(body, rss));
      return true;
    case 'half':
      res.writeHead(200, { 'content-type': type }).end(halfOf(body, rss));
      return true;
    case 'stall':
      res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
      res.write(body.slice(0, Math.min(1000, Math.floor(body.length / 3))));
      return true;
    case 'slow':
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': type }).end(body);
      }, f.delayMs ?? 1000);
      return true;
    default:
      return false;
  }
}
