import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { RadarProviders } from '../components/RadarProviders/index.js';

/** Renders inside the real providers with a fresh SWR cache and a memory router. */
export function renderWithProviders(ui: ReactElement, { route = '/', withAuthDialog = true } = {}) {
  return render(
    <RadarProviders swr={{ provider: () => new Map() }} withAuthDialog={withAuthDialog}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </RadarProviders>,
  );
}
