import { z } from './zod.js';

/**
 * Configuration served with the page (a `<script>` setting `window.__RADAR_CONFIG__`, or GET /config.json).
 * The shell learns where each remote lives from this, never from a build-time constant.
 */
export const runtimeConfig = z.object({
  remotes: z.object({ dashboard: z.string(), admin: z.string(), digest: z.string() }),
  supportEmail: z.string(),
  sisterProductUrl: z.string(),
  sisterProductName: z.string(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfig>;
