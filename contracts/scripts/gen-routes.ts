/**
 * Writes src/routes.generated.ts: every endpoint's method and path, without its schemas. Run after changing the
 * endpoint table (`npm run gen:routes --workspace @radar/contracts`); contracts' tests fail while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRouteTable } from '../src/route-table-source.js';

const target = fileURLToPath(new URL('../src/routes.generated.ts', import.meta.url));
writeFileSync(target, renderRouteTable());
process.stdout.write(`wrote ${target}\n`);
