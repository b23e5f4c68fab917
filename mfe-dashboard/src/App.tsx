import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { AppHeader, NotFoundPage } from '@radar/shared-ui';
import { DashboardPage } from './pages/DashboardPage/index.js';

/** /dashboard/roadmap/{id} and /dashboard/message/{id} (standalone share links) open the dashboard dialog. */
function ShareRedirect({ param }: { param: 'roadmap' | 'message' }) {
  const { id = '' } = useParams();
  return <Navigate to={{ pathname: '../..', search: `?${param}=${encodeURIComponent(id)}` }} relative="path" replace />;
}

/**
 * Routes of the dashboard app, mounted by the shell under /dashboard/* (the dashboard page is its root). Any other
 * sub-path is the 404 page; the shell hides its header under /dashboard, so this app draws it.
 */
export default function App() {
  return (
    <Routes>
      <Route index element={<DashboardPage />} />
      <Route path="roadmap/:id" element={<ShareRedirect param="roadmap" />} />
      <Route path="message/:id" element={<ShareRedirect param="message" />} />
      <Route
        path="*"
        element={
          <>
            <AppHeader />
            <NotFoundPage />
          </>
        }
      />
    </Routes>
  );
}
