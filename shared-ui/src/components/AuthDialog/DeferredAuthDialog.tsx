import { useAuthDialogStore } from '../../auth/auth-dialog-store.js';
import { Deferred, lazyNamed } from '../../lazy/Deferred.js';
import type { AuthDialogProps } from './AuthDialog.js';

const AuthDialog = lazyNamed(() => import('./AuthDialog.js'), 'AuthDialog');

/**
 * The sign-in dialog as every page mounts it: its code (with the form validation's zod schemas) is fetched the first
 * time something opens it, not with the page.
 */
export function DeferredAuthDialog(props: AuthDialogProps) {
  const isOpen = useAuthDialogStore((state) => state.isOpen);
  return (
    <Deferred open={isOpen}>
      <AuthDialog {...props} />
    </Deferred>
  );
}
