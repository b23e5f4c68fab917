import type { ComponentType } from 'react';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@radar/contracts';
import { takeEarlyManifest } from './early-remote.js';

export type RemoteKey = keyof RuntimeConfig['remotes'];

/** Federation names of the remotes (the `name` each remote's webpack config builds with). */
export const REMOTE_NAMES: Record<RemoteKey, string> = {
  dashboard: 'radar_dashboard',
  admin: 'radar_admin',
  digest: 'radar_digest',
};

/** User-facing names, for loading and error messages. */
export const REMOTE_LABELS: Record<RemoteKey, string> = {
  dashboard: 'Dashboard',
  admin: 'Admin',
  digest: 'Weekly Digest',
};

/** A hung remote server must not leave the page spinning: manifests and scripts give up after this. */
export const REMOTE_TIMEOUT_MS = 5000;

/**
 * Runtime plugin: a timeout on the manifest fetch and on the remoteEntry script. A manifest the entry already
 * requested (early-remote.ts, with the same timeout) is answered from that request.
 */
export function remoteTimeoutPlugin(timeoutMs: number = REMOTE_TIMEOUT_MS): ModuleFederationRuntimePlugin {
  return {
    name: 'radar-remote-timeout',
    fetch(url, init) {
      return takeEarlyManifest(url) ?? fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    },
    createScript({ url, attrs }) {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name !== 'async' && name !== 'defer') script.setAttribute(name, String(value));
      }
      return { script, timeout: timeoutMs };
    },
  };
}

/** Registers the remotes named by the runtime config (their mf-manifest.json or remoteEntry.js URLs). */
export function registerRadarRemotes(config: RuntimeConfig): void {
  registerPlugins([remoteTimeoutPlugin()]);
  registerRemotes(
    (Object.keys(REMOTE_NAMES) as RemoteKey[]).map((key) => ({
      name: REMOTE_NAMES[key],
      entry: new URL(config.remotes[key], window.location.href).href,
    })),
    { force: true },
  );
}

/** Loads a remote's exposed ./App; rejects when the remote is unreachable or exposes no component. */
export async function loadRemoteApp(key: RemoteKey): Promise<{ default: ComponentType }> {
  const module = await loadRemote<{ default?: ComponentType }>(`${REMOTE_NAMES[key]}/App`);
  if (!module || typeof module.default !== 'function') {
    throw new Error(`The ${REMOTE_LABELS[key]} app did not load.`);
  }
  return { default: module.default };
}
