import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { RadarProviders } from '@radar/shared-ui';
import { App } from './App.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RadarProviders>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </RadarProviders>
  </StrictMode>,
);
