import { SERVER_RENDER } from '@radar/contracts';

/**
 * What the server render and the browser's bootstrap agree on (render-page.tsx, bootstrap.tsx; the api's part is in
 * contracts' SERVER_RENDER). No React here: the shell's entry reads it before the shared modules exist.
 */

/** The emotion cache key of the server render and of the browser (emotion's default), so the browser adopts the styles. */
export const EMOTION_KEY = 'css';

/** True when #root holds a page the server rendered (cheap: the data is read by the bootstrap). */
export function isServerRendered(doc: Document = document): boolean {
  return doc.getElementById('root')?.hasAttribute(SERVER_RENDER.rootAttribute) ?? false;
}

/** The data the server rendered the page from, or undefined when the page was not rendered on the server. */
export function readServerData(doc: Document = document): Record<string, unknown> | undefined {
  const element = doc.getElementById(SERVER_RENDER.dataElementId);
  if (!element?.textContent) return undefined;
  try {
    const data = JSON.parse(element.textContent) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
