import { mismatchMessage, REMOTE_LABELS, sharedMismatches, type RemoteKey, type SharedMismatch } from '@radar/contracts';

// The versions of the shared libraries this shell provides, written in by its build (build-config/federation.cjs).
declare const __RADAR_SHELL_SHARED__: Record<string, string> | undefined;

/** A remote built against shared libraries this shell does not provide: shown in the page with what differs. */
export class RemoteIncompatibleError extends Error {
  override readonly name = 'RemoteIncompatibleError';
  constructor(
    message: string,
    readonly mismatches: SharedMismatch[],
  ) {
    super(message);
  }
}

export function shellSharedVersions(): Record<string, string> {
  return typeof __RADAR_SHELL_SHARED__ === 'undefined' ? {} : __RADAR_SHELL_SHARED__;
}

interface ManifestWithBuild {
  metaData?: { radar?: { version?: unknown; shared?: unknown } };
}

/**
 * Throws RemoteIncompatibleError when the manifest's shared-library ranges (metaData.radar.shared) are not met by
 * the shell's versions: the same check the admin's Test button runs (sharedMismatches). A manifest that states no
 * ranges (a build from before they were written) passes.
 */
export function assertCompatible(key: RemoteKey, manifest: unknown, provided: Record<string, string> = shellSharedVersions()): void {
  const radar = (manifest as ManifestWithBuild | undefined)?.metaData?.radar;
  if (!radar || typeof radar.shared !== 'object' || radar.shared === null) return;
  const mismatches = sharedMismatches(provided, radar.shared as Record<string, string>);
  if (mismatches.length === 0) return;
  const version = typeof radar.version === 'string' ? radar.version : null;
  throw new RemoteIncompatibleError(mismatchMessage(REMOTE_LABELS[key], version, mismatches), mismatches);
}
