import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SIGNED_OUT_PARAM } from '@radar/contracts';
import { useToast } from '@radar/shared-ui';

/**
 * The sign-out page (GET /api/logout, the mobile menu's navigation) signs out by a POST that lands on '/?signedOut=1':
 * confirm it with the spec's toast and drop the parameter.
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
  return null;
}
