import { RUNTIME_CONFIG_GLOBAL, type RuntimeConfig } from '@radar/contracts';
// The subpath, not '@radar/shared-ui': that is a shared module, unavailable before the async boundary (see index.ts).
import { fallbackRuntimeConfig } from '@radar/shared-ui/runtime-config';

type ConfigWindow = Window & { [RUNTIME_CONFIG_GLOBAL]?: unknown };

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * The shape of the contract's `runtimeConfig` schema, checked without zod: this runs before anything else on every
 * page load, and zod (about 75 KB minified) would be the largest part of the shell's entry file. The config is our
 * own api's output (validated from its environment at start); this only decides whether it is usable.
 * runtime-config.test.ts keeps it in step with the schema.
 */
export function isRuntimeConfig(value: unknown): value is RuntimeConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  const remotes = config.remotes as Record<string, unknown> | null | undefined;
  return (
    typeof remotes === 'object' &&
    remotes !== null &&
    isString(remotes.dashboard) &&
    isString(remotes.admin) &&
    isString(remotes.digest) &&
    isString(config.supportEmail) &&
    isString(config.sisterProductUrl) &&
    isString(config.sisterProductName)
  );
}

/**
 * Where the remotes live, read at run time: the `<script>` the api injects into index.html, else GET /config.json
 * (the shell's dev server answers it). The result is stored back on window so remotes read the same values.
 * Never throws: with no usable config the conventional /remotes/* paths are used.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const win = window as ConfigWindow;
  const inline = win[RUNTIME_CONFIG_GLOBAL];
  let config = isRuntimeConfig(inline) ? inline : undefined;
  if (!config) {
    try {
      const response = await fetchImpl('/config.json', { credentials: 'same-origin', signal: AbortSignal.timeout(5000) });
      const fetched: unknown = response.ok ? await response.json() : undefined;
      config = isRuntimeConfig(fetched) ? fetched : undefined;
    } catch {
      config = undefined;
    }
  }
  const resolved = config ?? fallbackRuntimeConfig;
  win[RUNTIME_CONFIG_GLOBAL] = resolved;
  return resolved;
}
