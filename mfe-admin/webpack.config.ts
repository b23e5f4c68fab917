import path from 'node:path';
import { fileURLToPath } from 'node:url';
import federation from '@radar/build-config/federation';

// Everything shared across the four apps (singletons, loaders, output) lives in the one helper.
export default federation.createAppConfig({
  dirname: path.dirname(fileURLToPath(import.meta.url)),
  app: 'admin',
  title: 'M365 Radar',
});
