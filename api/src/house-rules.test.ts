import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The house rules a reviewer would otherwise have to remember (docs/architecture.md, "Where code goes"): checked
// over the source, so a new file that breaks one fails here with its name and line.
const apiSrc = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(apiSrc, '..', '..');

function filesUnder(dir: string, extensions: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'dist-server', 'fixtures'].includes(entry.name) ? [] : filesUnder(full, extensions);
    return extensions.test(entry.name) ? [full] : [];
  });
}

/** `file:line: text` for each line of the files that matches. */
function offending(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(repoRoot, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('house rules', () => {
  it('runs database statements only in repositories (*.repo.ts) and db/', () => {
    const files = filesUnder(apiSrc, /\.tsx?$/).filter((f) => {
      const rel = path.relative(apiSrc, f);
      return !rel.startsWith(`db${path.sep}`) && !/\.(repo|test)\.ts$/.test(rel);
    });
    // A query builder or raw statement started on a connection, a transaction or the pool.
    const statement = /\b(db|tx|pool|deps\.db|ctx\.db|deps\.pool)\.(select|selectDistinct|insert|update|delete|execute|query)\b(?!\s*:)|\brunSql\(/;
    const allowed = [
      // Liveness and readiness ask the pool itself whether it answers.
      `features${path.sep}health${path.sep}health.endpoints.ts`,
    ];
    expect(
      offending(
        files.filter((f) => !allowed.includes(path.relative(apiSrc, f))),
        statement,
      ),
    ).toEqual([]);
  });

  it('has no comment or doc that sends the reader outside the repository or to an issue number', () => {
    const code = [
      'api/src',
      'api/test',
      'api/bench',
      'contracts/src',
      'shared-ui/src',
      'shell/src',
      'mfe-dashboard/src',
      'mfe-admin/src',
      'mfe-digest/src',
      'e2e/tests',
      'build-config',
    ].flatMap((dir) => filesUnder(path.join(repoRoot, dir), /\.(tsx?|cjs|mjs|js)$/));
    const docs = [...filesUnder(path.join(repoRoot, 'docs'), /\.md$/), path.join(repoRoot, 'README.md')];
    const outside = /\bspec 0[12]\b|\bspec §|\bSpec 0[12]\b|§\s?\d|\b[Ii]ssue #?\d+\b|FORMAT\.md|STACK-NOTES|ARCHITECTURE\.md|ARCHITECTURE guide/;
    const self = path.join(apiSrc, 'house-rules.test.ts');
    expect(
      offending(
        [...code, ...docs].filter((f) => f !== self),
        outside,
      ),
    ).toEqual([]);
  });
});
