import { Navigate, useParams } from 'react-router-dom';
import type { SHARE_LINK_PREFIXES } from '@radar/contracts';

/** /roadmap/{itemId}, /message/{messageId} and /health/{issueId}: open the dashboard with that item's dialog. */
export function ShareLinkRedirect({ param }: { param: keyof typeof SHARE_LINK_PREFIXES }) {
  const { id = '' } = useParams();
  return <Navigate to={`/dashboard?${param}=${encodeURIComponent(id)}`} replace />;
}
