/**
 * A screen width for the width queries (MUI breakpoints) of the next render (the matchMedia stub of setup.ts reads it;
 * every test starts at 1280 px). A phone: setViewportWidth(390).
 */
export function setViewportWidth(px: number): void {
  const media = (globalThis as { __media?: { width: number } }).__media;
  if (!media) throw new Error('setViewportWidth needs the shared-ui test setup (setup.ts)');
  media.width = px;
}
