import fs from 'node:fs';

export default async function globalTeardown() {
  const state = globalThis.__radarPg;
  if (!state) return;
  await state.server.stop();
  fs.rmSync(state.dataDir, { recursive: true, force: true });
}
