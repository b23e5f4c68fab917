import type { DbOrTx } from '../../db/client.js';
import type { AccessNarrowed } from '../../lib/access-narrowed.js';
import { releaseUnseenRecords } from './triage-audience.repo.js';

const REASONS: Record<AccessNarrowed['cause'], string> = {
  'grant-revoked': 'The owner no longer has access to this tenant',
  'admin-role-removed': 'The owner is no longer an admin and has no access to this tenant',
  'tenant-made-private': 'The tenant was made private and the owner has no access to it',
};

/** Triage's part when access narrows: open records whose owner may no longer see them go back to the queue. */
export async function releaseOnAccessNarrowed(tx: DbOrTx, narrowed: AccessNarrowed, now: Date): Promise<void> {
  await releaseUnseenRecords(tx, 'userId' in narrowed ? { userId: narrowed.userId } : { tenantId: narrowed.tenantId }, now, REASONS[narrowed.cause]);
}
