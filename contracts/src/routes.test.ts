import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { endpointList } from './endpoints/index.js';
import { renderRouteTable } from './route-table-source.js';
import { routes } from './routes.js';

describe('routes (the endpoint table without schemas)', () => {
  it('routes.generated.ts is current: run `npm run gen:routes --workspace @radar/contracts`', () => {
    const file = readFileSync(new URL('./routes.generated.ts', import.meta.url), 'utf8');
    expect(file).toBe(renderRouteTable());
  });

  it('has every endpoint with its method and path, and nothing else', () => {
    const flat = Object.entries(routes).flatMap(([group, rows]) =>
      Object.entries(rows).map(([name, route]) => ({ id: `${group}.${name}`, method: route.method, path: route.path })),
    );
    expect(flat).toEqual(endpointList.map((e) => ({ id: e.id, method: e.method, path: e.path })));
    for (const route of Object.values(routes).flatMap((rows) => Object.values(rows))) expect(Object.keys(route).sort()).toEqual(['method', 'path']);
  });
});
