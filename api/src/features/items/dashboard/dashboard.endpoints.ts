import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { InputError } from '../../../lib/errors.js';
import { toFeaturedItem } from '../item-mapper.js';
import { createDashboardRepo } from './dashboard.repo.js';

/** Filter options and counts, dashboard stats and featured items: public reads. */
export function createDashboardEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createDashboardRepo(ctx.pool);
  return [
    implement(endpoints.items.filterOptions, () => repo.filterOptions()),
    implement(endpoints.items.filterCounts, () => repo.filterCounts()),
    implement(endpoints.items.stats, ({ query }) => repo.stats(query.sources, ctx.clock.now())),
    implement(endpoints.items.featuredRecent, async ({ query }) => (await repo.featured(query.limit)).map(toFeaturedItem)),
    implement(endpoints.items.featuredTimeframe, async ({ query }) => {
      const start = new Date(query.startDate);
      const end = new Date(query.endDate);
      if (start > end) {
        throw new InputError('endDate: endDate must not be before startDate', [{ path: 'endDate', message: 'endDate must not be before startDate' }]);
      }
      return (await repo.featured(query.limit, { start, end })).map(toFeaturedItem);
    }),
  ];
}
