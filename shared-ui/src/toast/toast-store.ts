import { create } from 'zustand';
import { TOAST } from '@radar/contracts';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: string;
  description?: string;
  /** 'destructive' for failures (spec 01 §8: every failure toast). */
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; default 5000. */
  duration?: number;
}

export interface Toast extends ToastOptions {
  id: string;
  variant: ToastVariant;
  duration: number;
}

interface ToastState {
  toasts: Toast[];
  toast: (options: ToastOptions) => { id: string; dismiss: () => void };
  dismiss: (id?: string) => void;
}

let counter = 0;

/** One store for host and remotes: a remote's toast shows in the host's viewport. */
export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  toast: (options) => {
    counter += 1;
    const id = `toast-${counter}`;
    const next: Toast = { ...options, id, variant: options.variant ?? 'default', duration: options.duration ?? TOAST.defaultDurationMs };
    // Only one toast is visible at a time (TOAST.limit = 1): the newest replaces the others.
    set({ toasts: [next, ...get().toasts].slice(0, TOAST.limit) });
    return { id, dismiss: () => get().dismiss(id) };
  },
  dismiss: (id) => set({ toasts: id ? get().toasts.filter((t) => t.id !== id) : [] }),
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
