import { create } from 'zustand';
import { TOAST } from '../presentation/ui-constants.js';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: string;
  description?: string;
  /** 'destructive' for failures (every failure toast). */
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; default 5000. */
  duration?: number;
}

export interface Toast extends ToastOptions {
  id: string;
  variant: ToastVariant;
  duration: number;
  /** False once dismissed: the toast is no longer shown, and leaves the store TOAST.removeDelayMs later. */
  open: boolean;
}

interface ToastState {
  /** The newest first, at most TOAST.limit, dismissed ones included until they are removed. */
  toasts: Toast[];
  toast: (options: ToastOptions) => { id: string; dismiss: () => void };
  /** Closes one toast, or every toast without an id. */
  dismiss: (id?: string) => void;
  /** Drops a toast from the store at once. */
  remove: (id?: string) => void;
}

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function clearRemovalTimer(id: string) {
  const timer = removalTimers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  removalTimers.delete(id);
}

/**
 * One store for host and remotes: a remote's toast shows in the host's viewport. A dismissed
 * toast is removed from the store 1,000,000 ms (TOAST.removeDelayMs) after it closed; until then it is kept with
 * `open: false` and not shown. A newer toast pushes it out sooner (TOAST.limit = 1).
 */
export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  toast: (options) => {
    counter += 1;
    const id = `toast-${counter}`;
    const next: Toast = {
      ...options,
      id,
      variant: options.variant ?? 'default',
      duration: options.duration ?? TOAST.defaultDurationMs,
      open: true,
    };
    // Only one toast is visible at a time (TOAST.limit = 1): the newest replaces the others.
    const kept = [next, ...get().toasts].slice(0, TOAST.limit);
    for (const old of get().toasts) if (!kept.includes(old)) clearRemovalTimer(old.id);
    set({ toasts: kept });
    return { id, dismiss: () => get().dismiss(id) };
  },
  dismiss: (id) => {
    const closing = get().toasts.filter((t) => t.open && (id === undefined || t.id === id));
    if (closing.length === 0) return;
    for (const t of closing) {
      clearRemovalTimer(t.id);
      removalTimers.set(
        t.id,
        setTimeout(() => get().remove(t.id), TOAST.removeDelayMs),
      );
    }
    set({ toasts: get().toasts.map((t) => (closing.includes(t) ? { ...t, open: false } : t)) });
  },
  remove: (id) => {
    for (const t of get().toasts) if (id === undefined || t.id === id) clearRemovalTimer(t.id);
    set({ toasts: id === undefined ? [] : get().toasts.filter((t) => t.id !== id) });
  },
}));

/** Show a toast from outside React (e.g. after a fetch). */
export const toast = (options: ToastOptions) => useToastStore.getState().toast(options);

const PENDING_TOAST_KEY = 'radar-pending-toast';

/** Keeps a toast in sessionStorage so it shows after a page reload (the welcome toast after sign-in). */
export function queueToastAfterReload(options: ToastOptions): void {
  try {
    window.sessionStorage.setItem(PENDING_TOAST_KEY, JSON.stringify(options));
  } catch {
    // Storage unavailable: the toast is lost, sign-in itself still worked.
  }
}

/** Shows (once) a toast queued before the last reload. */
export function showQueuedToast(): void {
  try {
    const raw = window.sessionStorage.getItem(PENDING_TOAST_KEY);
    if (!raw) return;
    window.sessionStorage.removeItem(PENDING_TOAST_KEY);
    toast(JSON.parse(raw) as ToastOptions);
  } catch {
    // Malformed entry: ignore it.
  }
}
