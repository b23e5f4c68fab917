import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointList } from '@radar/contracts';
import { openApiPath } from './openapi.js';
import { renderApiReference } from './api-reference.js';

const docFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/api-reference.md');

describe('docs/api-reference.md', () => {
  it('is what the endpoint table generates (run `npm run docs:api --workspace @radar/api` after changing a row)', () => {
    expect(fs.readFileSync(docFile, 'utf8')).toBe(renderApiReference());
  });

  it('lists every row of the table once', () => {
    const text = renderApiReference();
    for (const e of endpointList) expect(text.split(`| \`${e.method} ${openApiPath(e.path)}\` |`).length - 1).toBe(1);
  });
});
