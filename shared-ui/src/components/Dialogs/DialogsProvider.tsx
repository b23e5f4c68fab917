import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import type { ConfirmOptions } from './ConfirmDialog.js';

// The dialog's code (MUI's Dialog and Button) is fetched the first time something asks, not with the page.
const ConfirmDialog = lazyNamed(() => import('./ConfirmDialog.js'), 'ConfirmDialog');

export interface Dialogs {
  /**
   * Opens the confirm dialog and resolves to true when the user confirms (after `options.action` settled, when there
   * is one), false on Cancel, Escape or a click outside.
   * `if (await dialogs.confirm('Apps using it stop working.', { title: 'Revoke “CI”?', okText: 'Revoke' })) …`
   */
  confirm(message: string, options: ConfirmOptions): Promise<boolean>;
}

interface Pending extends ConfirmOptions {
  message: string;
  resolve: (confirmed: boolean) => void;
}

const DialogsContext = createContext<Dialogs | null>(null);

/**
 * Renders the one confirm dialog of the page and answers `useDialogs().confirm`. RadarProviders includes it, so the
 * shell and every remote (hosted or standalone) ask the same way.
 */
export function DialogsProvider({ children }: { children: ReactNode }) {
  // The last request stays rendered after it is answered, so its text does not blank while the dialog fades out.
  const [last, setLast] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState(false);
  const confirm = useCallback(
    (message: string, options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        setLast((previous) => {
          // A second request replaces an open one, which counts as cancelled.
          previous?.resolve(false);
          return { ...options, message, resolve };
        });
        setChosen(options.choice?.checked ?? false);
        setOpen(true);
      }),
    [],
  );
  const close = async (confirmed: boolean) => {
    const pending = last;
    if (!open || !pending) return;
    if (confirmed && pending.action) {
      setBusy(true);
      try {
        await pending.action(chosen);
      } catch {
        // The action reports its own failure (a toast); the dialog still closes.
      } finally {
        setBusy(false);
      }
    }
    pending.resolve(confirmed);
    setOpen(false);
  };
  const value = useMemo(() => ({ confirm }), [confirm]);
  return (
    <DialogsContext.Provider value={value}>
      {children}
      {last ? (
        <Deferred open={open}>
          <ConfirmDialog
            open={open}
            title={last.title}
            message={last.message}
            okText={last.okText}
            cancelText={last.cancelText}
            severity={last.severity}
            busy={busy}
            busyText={last.busyText}
            choice={last.choice ? { label: last.choice.label, checked: chosen } : undefined}
            onChoose={setChosen}
            onClose={(confirmed) => void close(confirmed)}
          />
        </Deferred>
      ) : null}
    </DialogsContext.Provider>
  );
}

/** The page's dialogs (inside RadarProviders or a DialogsProvider). */
export function useDialogs(): Dialogs {
  const dialogs = useContext(DialogsContext);
  if (!dialogs) throw new Error('useDialogs needs a DialogsProvider (RadarProviders includes one)');
  return dialogs;
}
