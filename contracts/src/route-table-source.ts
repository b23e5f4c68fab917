import { endpoints } from './endpoints/index.js';

/**
 * The source text of routes.generated.ts, from the endpoint table (scripts/gen-routes.ts writes it; a test checks the
 * file is current).
 */
export function renderRouteTable(): string {
  const groups = Object.entries(endpoints).map(([group, rows]) => {
    const lines = Object.entries(rows).map(([name, e]) => `    ${name}: { method: '${e.method}', path: '${e.path}' },`);
    return `  ${group}: {\n${lines.join('\n')}\n  },`;
  });
  return [
    '// Generated from the endpoint table by contracts/scripts/gen-routes.ts: do not edit.',
    '// Run `npm run gen:routes --workspace @radar/contracts` after changing contracts/src/endpoints.',
    'export const routeTable = {',
    ...groups,
    '} as const;',
    '',
  ].join('\n');
}
