import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from './config.js';
import { renderConfigurationDoc } from './config-docs.js';

const docFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/configuration.md');

describe('docs/configuration.md', () => {
  it('is what the config schema generates (run `npm run docs:config --workspace @radar/api` after changing a key)', () => {
    expect(fs.readFileSync(docFile, 'utf8')).toBe(renderConfigurationDoc());
  });

  it('describes every key', () => {
    const undescribed = Object.entries(configSchema.shape)
      .filter(([, schema]) => !(schema.meta() as { description?: string } | undefined)?.description)
      .map(([key]) => key);
    expect(undescribed).toEqual([]);
  });
});
