import type { SharedMismatch } from './remotes.js';
import { satisfiesRange } from './version-range.js';

/**
 * The libraries a remote shares with the shell at run time (singletons: one copy, the shell's) or compiles against
 * (the contracts), whose versions a remote's manifest states. One check for the shell (before it loads a remote) and
 * the api (the admin's Test button), so both refuse the same builds.
 */
export const SHARED_LIBRARIES = ['react', 'react-router', '@mui/material', '@radar/shared-ui', '@radar/contracts'] as const;

/**
 * The libraries whose `required` range (the remote's build) the `provided` version (the shell's) does not satisfy.
 * A library either side does not state is not compared (a build from before ranges were written states none).
 */
export function sharedMismatches(provided: Record<string, string | undefined>, required: Record<string, string | undefined>): SharedMismatch[] {
  const mismatches: SharedMismatch[] = [];
  for (const library of SHARED_LIBRARIES) {
    const range = required[library];
    const version = provided[library];
    if (!range || !version) continue;
    if (!satisfiesRange(version, range)) mismatches.push({ library, required: range, provided: version });
  }
  return mismatches;
}

/** "Admin 0.2.0+abc needs @radar/shared-ui ^1.0.0 (this site has 0.1.0)." — the message the shell and Test show. */
export function mismatchMessage(label: string, version: string | null, mismatches: readonly SharedMismatch[]): string {
  const needs = mismatches.map((m) => `${m.library} ${m.required} (this site has ${m.provided ?? 'none'})`).join(', ');
  return `${label}${version ? ` ${version}` : ''} was built for ${needs}.`;
}
