import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuthDialog } from '@radar/shared-ui';

/** GET /api/login redirects to '/?signin=1': open the sign-in dialog and drop the parameter. */
export function SignInParam() {
  const [params, setParams] = useSearchParams();
  const { open } = useAuthDialog();
  const wantsSignIn = params.get('signin') === '1';
  useEffect(() => {
    if (!wantsSignIn) return;
    open('signin');
    const next = new URLSearchParams(params);
    next.delete('signin');
    setParams(next, { replace: true });
  }, [wantsSignIn, open, params, setParams]);
  return null;
}
