import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from './ConfirmDialog.js';

interface PendingConfirmation {
  title: string;
  message: string;
  confirmLabel: string;
  action: () => Promise<unknown>;
}

/** `ask({...})` opens the dialog; the action runs on confirm, then the dialog closes. Render `dialog` once. */
export function useConfirmation(): { ask: (pending: PendingConfirmation) => void; dialog: ReactElement } {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await pending.action();
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title={pending?.title ?? ''}
      message={pending?.message ?? ''}
      confirmLabel={pending?.confirmLabel ?? 'Confirm'}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={() => setPending(null)}
    />
  );
  return { ask: setPending, dialog };
}
