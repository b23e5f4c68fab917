import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import * as contracts from './index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => readFileSync(path.join(here, f), 'utf8'))
  .join('\n');

describe('contracts are the one description of every payload', () => {
  it('exports a type for every exported schema', () => {
    const schemas = Object.entries(contracts)
      .filter(([, value]) => value instanceof z.ZodType)
      .map(([name]) => name);
    expect(schemas.length).toBeGreaterThan(50);
    const untyped = schemas.filter((name) => !new RegExp(`export type \\w+ = z\\.(infer|input|output)<typeof ${name}>`).test(sources));
    expect(untyped).toEqual([]);
  });
});
