import path from 'node:path';
import { fileURLToPath } from 'node:url';
import federation from '@radar/build-config/federation';
import { themeStyleSheet } from './src/server/theme-stylesheet.js';

// The host. In development it also answers /config.json with the remotes' dev-server URLs (in production the api
// injects window.__RADAR_CONFIG__ into index.html instead). Its page links the theme's variables as a static
// stylesheet (src/server/theme-stylesheet.ts).
export default federation.createAppConfig({
  dirname: path.dirname(fileURLToPath(import.meta.url)),
  app: 'shell',
  title: 'M365 Radar',
  themeStylesheet: themeStyleSheet(),
  devMiddleware: (app) => {
    app.get('/config.json', (_req, res) => res.json(federation.devRuntimeConfig()));
  },
});
