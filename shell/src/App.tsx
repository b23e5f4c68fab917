import { Route, Routes } from 'react-router-dom';
import { ShellLayout } from './components/ShellLayout/index.js';
import { RemoteApp } from './components/RemoteApp/index.js';
import { ShareLinkRedirect } from './components/ShareLinkRedirect/index.js';
import { LandingPage } from './pages/LandingPage/index.js';
import { ProfilePage } from './pages/ProfilePage/index.js';
import { NotificationsPage } from './pages/NotificationsPage/index.js';
import { ContactPage } from './pages/ContactPage/index.js';
import { PrivacyPage } from './pages/PrivacyPage/index.js';
import { TermsPage } from './pages/TermsPage/index.js';
import { NotFoundPage } from './pages/NotFoundPage/index.js';

/** The full route table (spec 02 §2): shell pages, remote areas, share links and the 404 fallback. */
export function App() {
  return (
    <ShellLayout>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/notifications" element={<NotificationsPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/dashboard/*" element={<RemoteApp remote="dashboard" ownsHeader />} />
        <Route path="/roadmap/:id" element={<ShareLinkRedirect param="roadmap" />} />
        <Route path="/message/:id" element={<ShareLinkRedirect param="message" />} />
        <Route path="/weekly-digest/*" element={<RemoteApp remote="digest" />} />
        <Route path="/admin/*" element={<RemoteApp remote="admin" />} />
        <Route path="/test-moderator" element={<RemoteApp remote="admin" />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ShellLayout>
  );
}
