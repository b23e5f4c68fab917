import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';

/**
 * The layer rules `npm run lint` checks (api/.dependency-cruiser.cjs): a small tree that breaks each of them must
 * be reported by rule name, and the same tree without the breaches must pass.
 */
const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as { forbidden: unknown[]; options: Record<string, unknown> };

let dir: string;
const files: Record<string, string> = {
  'src/lib/helper.ts': `import { applied } from '../features/sync/apply.js';\nexport const helper = applied;\n`,
  'src/features/sync/apply.ts': `import { rules } from '../triage/rules.js';\nexport const applied = rules;\n`,
  'src/features/triage/rules.ts': `import { push } from '../trackers/push.js';\nexport const rules = push;\n`,
  'src/features/trackers/push.ts': `export const push = 1;\n`,
  'src/features/tenants/grants.ts': `import { rules } from '../triage/rules.js';\nexport const grants = rules;\n`,
  'src/features/usage/read.ts': `import { refresh } from '../relevance/refresh.js';\nexport const read = refresh;\n`,
  'src/features/relevance/refresh.ts': `export const refresh = 1;\n`,
  'src/features/alerts/a.ts': `import { b } from '../digest/b.js';\nexport const a = () => b;\n`,
  'src/features/digest/b.ts': `import { a } from '../alerts/a.js';\nexport const b = () => a;\n`,
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true }, include: ['src'] }),
};

async function violations(tree: Record<string, string>): Promise<string[]> {
  await rm(path.join(dir, 'src'), { recursive: true, force: true });
  for (const [name, text] of Object.entries(tree)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  // The rules name paths relative to the directory the cruise runs in, as `npm run lint` runs it in api/.
  const cwd = process.cwd();
  process.chdir(dir);
  let result;
  try {
    result = await cruise(
      ['src'],
      { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden }, baseDir: dir, tsConfig: undefined } as never,
      {
        extensions: ['.ts', '.js'],
      } as never,
    );
  } finally {
    process.chdir(cwd);
  }
  const output = result.output as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'radar-layers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the layer rules', () => {
  it('report each breach by its rule', async () => {
    expect(await violations(files)).toEqual([
      'feature-cycle',
      'infrastructure-imports-feature',
      'ingestion-imports-relevance',
      'sync-imports-reactor',
      'tenants-imports-reactor',
      'triage-imports-trackers',
    ]);
  });

  it('pass the same features without the breaches', async () => {
    const clean = {
      ...files,
      'src/lib/helper.ts': `export const helper = 1;\n`,
      'src/features/sync/apply.ts': `export const applied = 1;\n`,
      'src/features/triage/rules.ts': `export const rules = 1;\n`,
      'src/features/tenants/grants.ts': `export const grants = 1;\n`,
      'src/features/usage/read.ts': `export const read = 1;\n`,
      'src/features/digest/b.ts': `export const b = () => 1;\n`,
    };
    expect(await violations(clean)).toEqual([]);
  });
});
