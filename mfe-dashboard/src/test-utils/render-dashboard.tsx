import { useLocation, useNavigate } from 'react-router-dom';
import { renderWithProviders, stubFetch, type StubAnswer } from '@radar/shared-ui/test';
import App from '../App.js';
import { anonymousRoutes } from './fixtures.js';

/** A list answer of the api. */
export const listOf = (items: unknown[], total = items.length, totalPages = 1) => ({ body: { items, total, totalPages } });

function LocationProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="location">{`${location.pathname}${location.search}`}</output>
      {/* The browser's Back and Forward buttons. */}
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
      <button type="button" onClick={() => void navigate(1)}>
        Browser forward
      </button>
    </>
  );
}

/**
 * The dashboard app at `route` with a stubbed api (a guest, filter options and counts, plus `routes`) and a
 * `location` probe showing the current path and query.
 */
export function renderDashboard(routes: Record<string, StubAnswer>, route = '/') {
  const stub = stubFetch({
    ...anonymousRoutes,
    'GET /api/roadmap/filter-options': {
      body: {
        products: ['Microsoft Teams', 'Outlook'],
        roadmapStatuses: ['In development', 'Launched'],
        messageCenterTags: ['Retirement', 'Admin impact'],
        cloudInstances: [],
      },
    },
    'GET /api/analytics/filter-counts': {
      body: { roadmapStatuses: [{ name: 'Launched', count: 882 }], messageCenterTags: [{ name: 'Retirement', count: 12 }] },
    },
    ...routes,
  });
  renderWithProviders(
    <>
      <App />
      <LocationProbe />
    </>,
    { route },
  );
  return stub;
}

/** The query of every list request made so far. */
export const listCalls = (calls: { url: string }[]) =>
  calls.filter((c) => c.url.startsWith('/api/unified/items')).map((c) => new URL(c.url, 'http://x').searchParams);
