import { raw, defineEndpoints } from '../endpoint.js';
import { openApiDocument } from '../reference.js';

/** The API reference: the OpenAPI document generated from this table and a reference UI served from local files. */
export const referenceEndpoints = defineEndpoints('reference', {
  openApi: {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'OpenAPI 3.1 description of every endpoint, generated from the endpoint table',
    access: 'public',
    tokenAccess: true,
    response: openApiDocument,
  },
  docs: {
    method: 'GET',
    path: '/api/docs',
    summary: 'The API reference (Swagger UI over /api/openapi.json)',
    access: 'public',
    tokenAccess: true,
    response: raw('text/html'),
  },
  docsStyle: {
    method: 'GET',
    path: '/api/docs/swagger-ui.css',
    summary: "The reference UI's style sheet",
    access: 'public',
    tokenAccess: true,
    response: raw('text/css'),
  },
  docsBundle: {
    method: 'GET',
    path: '/api/docs/swagger-ui-bundle.js',
    summary: "The reference UI's script",
    access: 'public',
    tokenAccess: true,
    response: raw('text/javascript'),
  },
  docsInit: {
    method: 'GET',
    path: '/api/docs/docs-init.js',
    summary: 'Starts the reference UI (a script file: the CSP allows no inline script)',
    access: 'public',
    tokenAccess: true,
    response: raw('text/javascript'),
  },
});
