import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@radar/shared-ui';
import { WeeklyDigestPage } from './pages/WeeklyDigestPage/index.js';

/** Routes of the weekly digest app, mounted by the shell under /weekly-digest; other sub-paths are 404. */
export default function App() {
  return (
    <Routes>
      <Route index element={<WeeklyDigestPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
