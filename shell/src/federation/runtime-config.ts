import { RUNTIME_CONFIG_GLOBAL, runtimeConfig, type RuntimeConfig } from '@radar/contracts';
// The subpath, not '@radar/shared-ui': that is a shared module, unavailable before the async boundary (see index.ts).
import { fallbackRuntimeConfig } from '@radar/shared-ui/runtime-config';

type ConfigWindow = Window & { [RUNTIME_CONFIG_GLOBAL]?: unknown };

/**
 * Where the remotes live, read at run time: the `<script>` the api injects into index.html, else GET /config.json
 * (the shell's dev server answers it). The result is stored back on window so remotes read the same values.
 * Never throws: with no usable config the conventional /remotes/* paths are used.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const win = window as ConfigWindow;
  let config = runtimeConfig.safeParse(win[RUNTIME_CONFIG_GLOBAL]).data;
  if (!config) {
    try {
      const response = await fetchImpl('/config.json', { credentials: 'same-origin', signal: AbortSignal.timeout(5000) });
      config = response.ok ? runtimeConfig.safeParse(await response.json()).data : undefined;
    } catch {
      config = undefined;
    }
  }
  const resolved = config ?? fallbackRuntimeConfig;
  win[RUNTIME_CONFIG_GLOBAL] = resolved;
  return resolved;
}
