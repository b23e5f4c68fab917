import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { syncTriggerErrorBody, type SyncHistoryRecord } from '@radar/contracts';
import { ApiError, useToast } from '@radar/shared-ui';
import { isSyncAffectedKey } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { adminWrites } from '../../api/admin-writes.js';

export type SyncKind = 'message_center' | 'roadmap' | 'service_health';

export const SYNC_TRIGGERS: Record<SyncKind, { label: string; run: typeof adminWrites.syncRoadmap; failure: string }> = {
  message_center: { label: 'Message Center', run: adminWrites.syncMessageCenter, failure: 'Failed to trigger Message Center sync.' },
  roadmap: { label: 'Roadmap', run: adminWrites.syncRoadmap, failure: 'Failed to trigger Roadmap sync.' },
  service_health: { label: 'Service Health', run: adminWrites.syncServiceHealth, failure: 'Failed to trigger Service Health sync.' },
};

export interface SyncOutcome {
  ok: boolean;
  /** The server's summary ('Roadmap sync finished: 3 new, ...') or its error message. */
  message: string;
  record: SyncHistoryRecord | null;
}

/** A failed trigger still answers with the recorded run ({error, sync}); read it when the body has one. */
function recordOfError(error: unknown): SyncHistoryRecord | null {
  return error instanceof ApiError ? (error.bodyAs(syncTriggerErrorBody)?.sync ?? null) : null;
}

/** The sync triggers: running state per source, the last outcome, toasts, and a refresh of what a sync changes. */
export function useSyncTriggers() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const [running, setRunning] = useState<Record<SyncKind, boolean>>({ message_center: false, roadmap: false, service_health: false });
  const [outcomes, setOutcomes] = useState<Partial<Record<SyncKind, SyncOutcome>>>({});

  const trigger = async (kind: SyncKind) => {
    const { run, failure } = SYNC_TRIGGERS[kind];
    setRunning((r) => ({ ...r, [kind]: true }));
    try {
      const answer = await run();
      setOutcomes((o) => ({ ...o, [kind]: { ok: true, message: answer.message, record: answer.sync } }));
      toast({ title: 'Sync Completed', description: answer.message });
    } catch (error) {
      setOutcomes((o) => ({ ...o, [kind]: { ok: false, message: errorMessageOf(error), record: recordOfError(error) } }));
      toast({ title: 'Sync Failed', description: failure, variant: 'destructive' });
    } finally {
      setRunning((r) => ({ ...r, [kind]: false }));
      // A failed run is recorded too, so the history changes either way; a successful one changes items, so the
      // Change History and Analytics tabs refresh as well (cached pages of them included).
      await mutate(isSyncAffectedKey);
    }
  };

  return { running, outcomes, trigger: (kind: SyncKind) => void trigger(kind) };
}
