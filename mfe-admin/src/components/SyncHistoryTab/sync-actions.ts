import { useState } from 'react';
import { useSWRConfig } from 'swr';
import type { SyncHistoryRecord } from '@radar/contracts';
import { ApiError, apiRequest, useToast } from '@radar/shared-ui';
import { ADMIN_KEYS } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';

export type SyncKind = 'message_center' | 'roadmap';

export const SYNC_TRIGGERS: Record<SyncKind, { label: string; path: string; failure: string }> = {
  message_center: { label: 'Message Center', path: '/api/admin/sync-message-center', failure: 'Failed to trigger Message Center sync.' },
  roadmap: { label: 'Roadmap', path: '/api/roadmap/sync', failure: 'Failed to trigger Roadmap sync.' },
};

export interface SyncOutcome {
  ok: boolean;
  /** The server's summary ('Roadmap sync finished: 3 new, ...') or its error message. */
  message: string;
  record: SyncHistoryRecord | null;
}

/** A failed trigger still answers with the recorded run ({error, sync}); read it when the body has one. */
function recordOfError(error: unknown): SyncHistoryRecord | null {
  if (!(error instanceof ApiError)) return null;
  try {
    return (JSON.parse(error.bodyText) as { sync?: SyncHistoryRecord }).sync ?? null;
  } catch {
    return null;
  }
}

/** The two sync triggers: running state per source, the last outcome, toasts, and a history refresh. */
export function useSyncTriggers() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const [running, setRunning] = useState<Record<SyncKind, boolean>>({ message_center: false, roadmap: false });
  const [outcomes, setOutcomes] = useState<Partial<Record<SyncKind, SyncOutcome>>>({});

  const trigger = async (kind: SyncKind) => {
    const { label, path, failure } = SYNC_TRIGGERS[kind];
    setRunning((r) => ({ ...r, [kind]: true }));
    try {
      const answer = await apiRequest<{ message: string; sync: SyncHistoryRecord }>('POST', path);
      setOutcomes((o) => ({ ...o, [kind]: { ok: true, message: answer.message, record: answer.sync } }));
      toast({ title: 'Sync Completed', description: answer.message ?? `${label} sync finished.` });
    } catch (error) {
      setOutcomes((o) => ({ ...o, [kind]: { ok: false, message: errorMessageOf(error), record: recordOfError(error) } }));
      toast({ title: 'Sync Failed', description: failure, variant: 'destructive' });
    } finally {
      setRunning((r) => ({ ...r, [kind]: false }));
      // A failed run is recorded too, so the list changes either way.
      await mutate(ADMIN_KEYS.syncHistory);
    }
  };
  return { running, outcomes, trigger: (kind: SyncKind) => void trigger(kind) };
}
