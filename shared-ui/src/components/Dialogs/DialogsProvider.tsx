import { createContext, useCallback, useContext, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
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
  /**
   * Renders `Component` with `payload` until it calls `onClose(result)`, and resolves to that result. The component is
   * rendered by the provider, so its caller keeps no open/close state of its own.
   * `const saved = await dialogs.open(RenameDialog, { name })`
   */
  open<P, R>(Component: ComponentType<DialogProps<P, R>>, payload: P): Promise<R>;
}

/** What a dialog opened with `useDialogs().open` is given. */
export interface DialogProps<P = undefined, R = void> {
  /** The second argument of `open`. */
  payload: P;
  /** True while it is shown. */
  open: boolean;
  /** Closes the dialog and resolves the `open` promise with `result`. */
  onClose: (result: R) => void;
}

interface Opened {
  key: number;
  Component: ComponentType<DialogProps<unknown, unknown>>;
  payload: unknown;
  resolve: (result: unknown) => void;
}

interface Pending extends ConfirmOptions {
  message: string;
  resolve: (confirmed: boolean) => void;
}

const DialogsContext = createContext<Dialogs | null>(null);

/**
 * Renders the one confirm dialog of the page and the dialogs opened with `useDialogs().open`, and answers both. RadarProviders includes it, so the
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
  const [opened, setOpened] = useState<Opened[]>([]);
  const nextKey = useRef(0);
  const openDialog = useCallback(
    <P, R>(Component: ComponentType<DialogProps<P, R>>, payload: P) =>
      new Promise<R>((resolve) => {
        const key = (nextKey.current += 1);
        const entry: Opened = {
          key,
          Component: Component as ComponentType<DialogProps<unknown, unknown>>,
          payload,
          resolve: resolve as (result: unknown) => void,
        };
        setOpened((current) => [...current, entry]);
      }),
    [],
  );
  const closeOpened = (entry: Opened, result: unknown) => {
    setOpened((current) => current.filter((o) => o.key !== entry.key));
    entry.resolve(result);
  };
  const value = useMemo(() => ({ confirm, open: openDialog }), [confirm, openDialog]);
  return (
    <DialogsContext.Provider value={value}>
      {children}
      {opened.map((entry) => (
        <entry.Component key={entry.key} payload={entry.payload} open onClose={(result) => closeOpened(entry, result)} />
      ))}
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
