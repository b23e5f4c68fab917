import { z } from './zod.js';
import { isoDate } from './common.js';
import { REMOTE_KEYS, remoteUrlProblem } from './remote-keys.js';

// The zod-free part lives in ./remote-keys.ts: the shell's first paint needs the names and labels, not zod.
export * from './remote-keys.js';

export const remoteUrl = z
  .string({ error: 'url is required' })
  .trim()
  .min(1, 'url is required')
  .max(2000, 'url must be at most 2000 characters')
  .superRefine((url, ctx) => {
    const problem = url ? remoteUrlProblem(url) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Route params `{ name }`; an unknown name is a 404 (answered by the handler, not a 400). */
export const remoteNameParams = z.object({ name: z.string().max(100) });

/** One row of the remote registry (Admin → Remotes). */
export const remoteEntry = z.object({
  name: z.enum(REMOTE_KEYS),
  url: z.string(),
  /** The version its manifest states now (`0.1.0+abc1234`), null when the manifest cannot be read or states none. */
  version: z.string().nullable(),
  /** The URL before the last change, for a one-click rollback. */
  previousUrl: z.string().nullable(),
  /** When a browser last reported loading this remote from its current URL (recorded at most once a minute). */
  lastLoadedAt: isoDate.nullable(),
});
export type RemoteEntry = z.infer<typeof remoteEntry>;
export const remotesResponse = z.array(remoteEntry);

export const updateRemoteRequest = z.object({ url: remoteUrl });
export type UpdateRemoteRequest = z.infer<typeof updateRemoteRequest>;

/** A shared library the remote needs in another version than the shell provides. */
export const sharedMismatch = z.object({ library: z.string(), required: z.string(), provided: z.string().nullable() });
export type SharedMismatch = z.infer<typeof sharedMismatch>;

/** POST /api/admin/remotes/{name}/test: the manifest fetched by the server and checked as the shell checks it. */
export const remoteTestResult = z.object({
  name: z.enum(REMOTE_KEYS),
  url: z.string(),
  /** Reachable, a valid manifest, and compatible with the shell (or stating no ranges). */
  ok: z.boolean(),
  reachable: z.boolean(),
  version: z.string().nullable(),
  /** null when the manifest states no ranges or the shell's build is not available to compare with. */
  compatible: z.boolean().nullable(),
  mismatches: z.array(sharedMismatch),
  message: z.string(),
});
export type RemoteTestResult = z.infer<typeof remoteTestResult>;

/** POST /api/remotes/{name}/loaded: the shell loaded this remote from `url`. */
export const remoteLoadedRequest = z.object({ url: z.string().max(2000) });
export const remoteLoadedResponse = z.object({ recorded: z.boolean() });

/**
 * What a remote's build writes into its mf-manifest.json (`metaData.radar`, build-config/federation.cjs): its version
 * and the ranges of the shared libraries it was built against. The shell's build writes the versions it provides
 * (`shell/dist/radar-build.json`, same shape, `shared` holding versions instead of ranges).
 */
export const radarBuildInfo = z.object({
  app: z.string(),
  version: z.string(),
  commit: z.string(),
  shared: z.record(z.string(), z.string()),
});
export type RadarBuildInfo = z.infer<typeof radarBuildInfo>;

// Types of the schemas above that had none (every exported schema has its type: schema-types.test.ts).
export type RemoteLoadedRequest = z.infer<typeof remoteLoadedRequest>;
export type RemoteLoadedResponse = z.infer<typeof remoteLoadedResponse>;
export type RemoteNameParams = z.infer<typeof remoteNameParams>;
export type RemoteUrl = z.infer<typeof remoteUrl>;
export type RemotesResponse = z.infer<typeof remotesResponse>;
