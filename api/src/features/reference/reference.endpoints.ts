import type { Response } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointList, endpoints, PRODUCT_NAME, type OpenApiDocument } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { buildOpenApiDocument } from './openapi.js';

const require = createRequire(import.meta.url);
/** Swagger UI's files from node_modules: the reference works without internet access and without a CDN. */
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const API_VERSION = (require('../../../package.json') as { version: string }).version;

/**
 * The page allows scripts and styles from this origin only (Swagger UI sets element styles, hence 'unsafe-inline'
 * for styles, which the product's policy allows too); no inline script, so it keeps working under a stricter CSP.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PRODUCT_NAME} API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" role="main" aria-label="${PRODUCT_NAME} API reference"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/docs-init.js"></script>
</body>
</html>
`;

function sendAsset(res: Response, file: string, type: string): Promise<void> {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  // Files change only with a deploy (a package upgrade); a day of caching, then revalidated by ETag.
  res.setHeader('Cache-Control', 'public, max-age=86400');
  return new Promise((resolve, reject) => res.sendFile(file, (err) => (err ? reject(err) : resolve())));
}

const documents = new Map<string, OpenApiDocument>();

/**
 * The OpenAPI document for a server address, generated from the endpoint table when first asked for and kept for the
 * process. Not built with the app: generating it is most of what building the app costs (about 150 ms), and most
 * processes that build an app (every api test) never ask for it.
 */
export function openApiDocumentFor(serverUrl: string): OpenApiDocument {
  let document = documents.get(serverUrl);
  if (!document) {
    document = buildOpenApiDocument(endpointList, { serverUrl, version: API_VERSION });
    documents.set(serverUrl, document);
  }
  return document;
}

/** GET /api/openapi.json (generated from the endpoint table once per process) and the reference UI at /api/docs. */
export function createReferenceEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    implement(endpoints.reference.openApi, () => openApiDocumentFor(ctx.publicUrl)),
    implement(endpoints.reference.docs, ({ res }) => {
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      res.status(200).type('html').send(DOCS_PAGE);
    }),
    implement(endpoints.reference.docsStyle, ({ res }) => sendAsset(res, path.join(SWAGGER_DIR, 'swagger-ui.css'), 'text/css')),
    implement(endpoints.reference.docsBundle, ({ res }) => sendAsset(res, path.join(SWAGGER_DIR, 'swagger-ui-bundle.js'), 'text/javascript')),
    implement(endpoints.reference.docsInit, ({ res }) => sendAsset(res, path.join(ASSETS_DIR, 'docs-init.js'), 'text/javascript')),
  ];
}
