import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createSubscriptionsRepo } from './subscriptions.repo.js';

/**
 * Item subscriptions of the signed-in user (the weekly digest has its own endpoints). A user only ever sees and
 * deletes their own: another user's id answers 404, exactly like an id that does not exist. A post of tenants the
 * caller may not see is an id that does not exist too.
 */
export function createSubscriptionsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSubscriptionsRepo(ctx.db);
  return [
    implementCallerRead(endpoints.subscriptions.list, async (auth) => repo.listOwn(auth.user.id, await tenantScopeOf(ctx.db, auth))),
    implement(endpoints.subscriptions.create, async ({ body: input, auth }) => {
      const item = await repo.findItem(input.itemType, input.itemId, await tenantScopeOf(ctx.db, auth));
      if (!item) throw new NotFoundError(`${input.itemType === 'roadmap' ? 'Roadmap item' : 'Message'} ${input.itemId} not found`);
      const { subscription, created } = await repo.upsert(
        auth.user.id,
        {
          itemType: input.itemType,
          itemExternalId: item.externalId,
          itemTitle: input.itemTitle?.trim() || item.title,
          changeTypes: [...new Set(input.changeTypes)],
        },
        ctx.clock.now(),
      );
      return Reply.status(created ? 201 : 200, subscription);
    }),
    implement(endpoints.subscriptions.remove, async ({ params: { id }, auth }) => {
      if (!(await repo.removeOwn(auth.user.id, id))) throw new NotFoundError(`Subscription ${id} not found`);
      return { success: true, message: 'Subscription removed' };
    }),
  ];
}
