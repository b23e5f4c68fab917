import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { showQueuedToast, useToastStore } from './toast-store.js';
import { Toaster } from '../components/Toaster/index.js';

type ToastStoreApi = typeof useToastStore;
const ToastContext = createContext<ToastStoreApi>(useToastStore);

export interface ToastProviderProps {
  children: ReactNode;
  /** Render the notifications viewport (true in the host and in standalone remotes). */
  withViewport?: boolean;
}

/** Provides the shared toast store and renders the one viewport; shows a toast queued before a reload. */
export function ToastProvider({ children, withViewport = true }: ToastProviderProps) {
  useEffect(() => {
    showQueuedToast();
  }, []);
  return (
    <ToastContext.Provider value={useToastStore}>
      {children}
      {withViewport ? <Toaster /> : null}
    </ToastContext.Provider>
  );
}

/** `const { toast, dismiss, toasts } = useToast()`; works in host and remotes alike. */
export function useToast() {
  const store = useContext(ToastContext);
  const toasts = useStore(store, (s) => s.toasts);
  const showToast = useStore(store, (s) => s.toast);
  const dismiss = useStore(store, (s) => s.dismiss);
  return { toasts, toast: showToast, dismiss };
}
