import type { ComponentType } from 'react';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@radar/contracts';
import { remoteManifest, takeEarlyManifest } from './early-remote.js';

export type RemoteKey = keyof RuntimeConfig['remotes'];

/** Federation names of the remotes (the `name` each remote's webpack config builds with). */
export const REMOTE_NAMES: Record<RemoteKey, string> = {
  dashboard: 'radar_dashboard',
  admin: 'radar_admin',
  digest: 'radar_digest',
};

/** User-facing names, for loading and error messages. */
export { REMOTE_LABELS } from '@radar/contracts';
import { REMOTE_LABELS } from '@radar/contracts';

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

/** The registry's URL of each remote for this page (as the runtime config gave it: the shell reports it loaded). */
const registeredUrls = new Map<RemoteKey, string>();

export const registeredRemoteUrl = (key: RemoteKey): string | undefined => registeredUrls.get(key);

/** Registers the remotes named by the runtime config (their mf-manifest.json or remoteEntry.js URLs). */
export function registerRadarRemotes(config: RuntimeConfig): void {
  for (const key of Object.keys(REMOTE_NAMES) as RemoteKey[]) registeredUrls.set(key, config.remotes[key]);
  registerPlugins([remoteTimeoutPlugin()]);
  registerRemotes(
    (Object.keys(REMOTE_NAMES) as RemoteKey[]).map((key) => ({
      name: REMOTE_NAMES[key],
      entry: new URL(config.remotes[key], window.location.href).href,
    })),
    { force: true },
  );
}

/**
 * Checks a remote's manifest against the shell's shared libraries before anything of the remote runs; a passed
 * check is kept for the page (the runtime loads a remote once), a failed one is asked again on Retry.
 */
const checked = new Map<string, Promise<void>>();
function checkCompatible(key: RemoteKey): Promise<void> {
  const url = registeredUrls.get(key);
  if (!url || !/\.json(\?|$)/.test(url)) return Promise.resolve();
  const absolute = new URL(url, window.location.href).href;
  let check = checked.get(absolute);
  if (!check) {
    // The check (and the semver ranges it needs) loads beside the manifest, off the shell's entry.
    check = Promise.all([remoteManifest(absolute, REMOTE_TIMEOUT_MS), import('./compat.js')]).then(([manifest, { assertCompatible }]) =>
      assertCompatible(key, manifest),
    );
    check.catch(() => checked.delete(absolute));
    checked.set(absolute, check);
  }
  return check;
}

/**
 * Loads a remote's exposed ./App; rejects when the remote is unreachable, exposes no component, or was built against
 * shared libraries this shell does not provide (RemoteIncompatibleError, before any of its code runs).
 */
export async function loadRemoteApp(key: RemoteKey): Promise<{ default: ComponentType }> {
  await checkCompatible(key);
  const module = await loadRemote<{ default?: ComponentType }>(`${REMOTE_NAMES[key]}/App`);
  if (!module || typeof module.default !== 'function') {
    throw new Error(`The ${REMOTE_LABELS[key]} app did not load.`);
  }
  return { default: module.default };
}

/** Apps the entry loaded before the first render (loadRemoteAppEarly), by remote. */
const earlyApps = new Map<RemoteKey, ComponentType>();

/**
 * Loads `key`'s ./App while the shell's own code downloads and runs (the entry, for a remote route), so RemoteApp can
 * render it in the page's first render: one render and one layout, no loading frame in between. Never rejects: a
 * failure is left to RemoteApp's own load, which shows it.
 */
export function loadRemoteAppEarly(key: RemoteKey): Promise<void> {
  return loadRemoteApp(key).then(
    (module) => void earlyApps.set(key, module.default),
    () => undefined,
  );
}

/** The App loadRemoteAppEarly loaded for `key`, if it has. */
export const earlyRemoteApp = (key: RemoteKey): ComponentType | undefined => earlyApps.get(key);

/** An App that is here without loading (the server render bundles the dashboard's ./App): rendered like an early one. */
export function provideRemoteApp(key: RemoteKey, App: ComponentType): void {
  earlyApps.set(key, App);
}
