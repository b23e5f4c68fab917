import { Navigate, useParams } from 'react-router-dom';

/** /roadmap/{itemId} and /message/{messageId}: open the dashboard with that item's dialog. */
export function ShareLinkRedirect({ param }: { param: 'roadmap' | 'message' }) {
  const { id = '' } = useParams();
  return <Navigate to={`/dashboard?${param}=${encodeURIComponent(id)}`} replace />;
}
