import type { DbOrTx } from '../db/client.js';

/**
 * Someone may have lost sight of some tenants' posts: one user's grant was revoked or their Admin role taken away, or
 * a tenant was made private (everyone without a grant). The features that hold work or messages for people react in
 * the transaction that narrows access, so nothing a person may no longer see waits for them after it commits.
 */
export type AccessNarrowed =
  { cause: 'grant-revoked'; userId: number } | { cause: 'admin-role-removed'; userId: number } | { cause: 'tenant-made-private'; tenantId: number };

/** What the features do when access narrows (composed in services.ts: triage gives back records, alerts withdraw). */
export type AccessNarrowedReactor = (tx: DbOrTx, narrowed: AccessNarrowed, now: Date) => Promise<void>;
