import { Route, Routes, useMatch } from 'react-router-dom';
import { NotFoundPage } from '@radar/shared-ui';
import { AdminPage } from './pages/AdminPage/index.js';
import { TestModeratorPage } from './pages/TestModeratorPage/index.js';

/**
 * Routes of the admin app. The shell mounts it under /admin/* and at /test-moderator; the latter is matched on
 * the full path because a nested <Routes> only sees paths below its parent route. Any other sub-path of /admin is
 * the 404 page.
 */
export default function App() {
  const isTestModerator = useMatch('/test-moderator');
  if (isTestModerator) return <TestModeratorPage />;
  return (
    <Routes>
      <Route index element={<AdminPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
