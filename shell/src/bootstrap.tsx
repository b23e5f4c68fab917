import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { RadarProviders } from '@radar/shared-ui';
import { App } from './App.js';

/** Renders the shell; index.ts calls it once the current route's page chunk is here (or failed). */
export function mount(): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <RadarProviders>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </RadarProviders>
    </StrictMode>,
  );
}
