import { Route, Routes } from 'react-router-dom';
import { WeeklyDigestPage } from './pages/WeeklyDigestPage/index.js';

/** Routes of the weekly digest app, mounted by the shell under /weekly-digest. */
export default function App() {
  return (
    <Routes>
      <Route index element={<WeeklyDigestPage />} />
      <Route path="*" element={<WeeklyDigestPage />} />
    </Routes>
  );
}
