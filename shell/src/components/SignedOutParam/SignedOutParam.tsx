import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { RECOVERY_PARAM, SIGNED_OUT_PARAM } from '@radar/contracts';
import { useAuthDialogStore, useToast } from '@radar/shared-ui';

/**
 * The sign-out page (GET /api/logout, the mobile menu's navigation) signs out by a POST that lands on '/?signedOut=1':
 * confirm it with the spec's toast and drop the parameter. `/?recovery=<e-mail>` (the link `npm run admin:recover`
 * prints) opens the sign-in dialog at the code step for that address.
 */
export function SignedOutParam() {
  const [params, setParams] = useSearchParams();
  const { toast } = useToast();
  const signedOut = params.get(SIGNED_OUT_PARAM) === '1';
  useEffect(() => {
    if (!signedOut) return;
    toast({ title: 'Signed out successfully' });
    const next = new URLSearchParams(params);
    next.delete(SIGNED_OUT_PARAM);
    setParams(next, { replace: true });
  }, [signedOut, toast, params, setParams]);
  const recovery = params.get(RECOVERY_PARAM);
  const openForCode = useAuthDialogStore((s) => s.openForCode);
  useEffect(() => {
    if (!recovery) return;
    openForCode(recovery);
    const next = new URLSearchParams(params);
    next.delete(RECOVERY_PARAM);
    setParams(next, { replace: true });
  }, [recovery, openForCode, params, setParams]);
  return null;
}
