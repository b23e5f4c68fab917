import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { RadarProviders } from '@radar/shared-ui';
import App from './App.js';

// Standalone development (npm run dev -w @radar/mfe-dashboard, port 3001). Inside the shell only ./App is used.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RadarProviders>
      <BrowserRouter>
        <Routes>
          <Route path="/dashboard/*" element={<App />} />
          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Routes>
      </BrowserRouter>
    </RadarProviders>
  </StrictMode>,
);
