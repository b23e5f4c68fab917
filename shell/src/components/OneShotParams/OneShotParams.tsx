import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { RECOVERY_PARAM, SIGN_IN_PARAM, SIGNED_OUT_PARAM } from '@radar/contracts';
import { useAuthDialog, useAuthDialogStore, useToast } from '@radar/shared-ui';

const ONE_SHOT_PARAMS = [SIGN_IN_PARAM, SIGNED_OUT_PARAM, RECOVERY_PARAM];

/**
 * Query parameters that ask the page for one thing and then leave the URL:
 * - `signin=1` (GET /api/login, the no-account mail): opens the sign-in dialog;
 * - `signedOut=1` (the sign-out page signs out by a POST that lands there): the toast 'Signed out successfully';
 * - `recovery=<e-mail>` (the link `npm run admin:recover` prints): the sign-in dialog at the code step for that address.
 * Every one present is acted on and all are dropped in one write of the URL: writes made one per parameter in the same
 * commit would each start from that render's parameters and put the others back.
 */
export function OneShotParams() {
  const [params, setParams] = useSearchParams();
  const { open } = useAuthDialog();
  const openForCode = useAuthDialogStore((s) => s.openForCode);
  const { toast } = useToast();
  const signIn = params.get(SIGN_IN_PARAM) === '1';
  const signedOut = params.get(SIGNED_OUT_PARAM) === '1';
  const recovery = params.get(RECOVERY_PARAM);
  const present = ONE_SHOT_PARAMS.some((name) => params.has(name));
  useEffect(() => {
    if (!present) return;
    if (signedOut) toast({ title: 'Signed out successfully' });
    if (recovery) openForCode(recovery);
    else if (signIn) open('signin');
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const name of ONE_SHOT_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [present, signIn, signedOut, recovery, open, openForCode, toast, setParams]);
  return null;
}
