import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppHeader, RadarProviders } from '@radar/shared-ui';
import App from './App.js';

// Standalone development (npm run dev -w @radar/mfe-admin, port 3002). Inside the shell only ./App is used.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RadarProviders>
      <BrowserRouter>
        <AppHeader />
        <Routes>
          <Route path="/admin/*" element={<App />} />
          <Route path="/test-moderator" element={<App />} />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Routes>
      </BrowserRouter>
    </RadarProviders>
  </StrictMode>,
);
