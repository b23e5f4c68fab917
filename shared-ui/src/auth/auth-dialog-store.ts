import { create } from 'zustand';

export type AuthMode = 'signin' | 'signup';

interface AuthDialogState {
  isOpen: boolean;
  mode: AuthMode;
  /** Set when the dialog opens at the code step for this address (a code the user already has, e.g. a recovery code). */
  codeFor: string | null;
  /** Opens the sign-in dialog in the given mode (default sign-in). */
  open: (mode?: AuthMode) => void;
  /** Opens the sign-in dialog at the code step for `email`, without sending a code. */
  openForCode: (email: string) => void;
  close: () => void;
  setMode: (mode: AuthMode) => void;
}

/** Shared by host and remotes: a remote's "Sign in" button opens the host's dialog. */
export const useAuthDialogStore = create<AuthDialogState>((set) => ({
  isOpen: false,
  mode: 'signin',
  codeFor: null,
  open: (mode = 'signin') => set({ isOpen: true, mode, codeFor: null }),
  openForCode: (email) => set({ isOpen: true, mode: 'signin', codeFor: email }),
  close: () => set({ isOpen: false, codeFor: null }),
  setMode: (mode) => set({ mode }),
}));

/** `const { open } = useAuthDialog(); open('signup')`. */
export function useAuthDialog() {
  const isOpen = useAuthDialogStore((s) => s.isOpen);
  const mode = useAuthDialogStore((s) => s.mode);
  const open = useAuthDialogStore((s) => s.open);
  const close = useAuthDialogStore((s) => s.close);
  const setMode = useAuthDialogStore((s) => s.setMode);
  return { isOpen, mode, open, close, setMode };
}
