import { describe, expect, it } from '@jest/globals';
import { SERVER_RENDER } from '@radar/contracts';
import { isServerRendered, readServerData } from './server-data.js';

function page(root: string, data?: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  doc.body.innerHTML = `${root}${data === undefined ? '' : `<script type="application/json" id="${SERVER_RENDER.dataElementId}">${data}</script>`}`;
  return doc;
}

describe('the data of a server-rendered page', () => {
  it('reads the answers the server rendered from, by URL', () => {
    const doc = page(
      `<div id="root" ${SERVER_RENDER.rootAttribute} inert><main></main></div>`,
      '{"/api/unified/items?page=1":{"total":2,"items":[]},"x":"\\u003c/script>"}',
    );
    expect(isServerRendered(doc)).toBe(true);
    expect(readServerData(doc)).toEqual({ '/api/unified/items?page=1': { total: 2, items: [] }, x: '</script>' });
  });

  it('a page rendered in the browser has none; broken or odd data counts as none', () => {
    expect(isServerRendered(page('<div id="root"></div>'))).toBe(false);
    expect(readServerData(page('<div id="root"></div>'))).toBeUndefined();
    expect(readServerData(page('<div id="root"></div>', '{"a":'))).toBeUndefined();
    expect(readServerData(page('<div id="root"></div>', '[1,2]'))).toBeUndefined();
    expect(readServerData(page('<div id="root"></div>', 'null'))).toBeUndefined();
    expect(readServerData(page('<div id="root"></div>', ''))).toBeUndefined();
  });
});
