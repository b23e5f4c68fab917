import path from 'node:path';
import { fileURLToPath } from 'node:url';
import federation from '@radar/build-config/federation';

// The server render of the shell's first screens (src/server/render-page.tsx), loaded by the api: dist-server/.
export default federation.createServerRenderConfig({
  dirname: path.dirname(fileURLToPath(import.meta.url)),
  remotes: { dashboard: 'mfe-dashboard', admin: 'mfe-admin' },
});
