import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { NotFoundError } from '../../../lib/errors.js';
import { createContactRepo } from '../../contact/contact.repo.js';

/** Admin → Contact: the submissions of the contact form, newest first; mark one read or delete it. */
export function createContactSubmissionsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createContactRepo(ctx.db);
  return [
    implement(endpoints.admin.contactSubmissions, () => repo.list()),
    implement(endpoints.admin.markContactRead, async ({ params: { id } }) => {
      const updated = await repo.markRead(id, ctx.clock.now());
      if (!updated) throw new NotFoundError(`Contact submission ${id} not found`);
      return updated;
    }),
    implement(endpoints.admin.deleteContact, async ({ params: { id } }) => {
      if (!(await repo.remove(id))) throw new NotFoundError(`Contact submission ${id} not found`);
      return { success: true, message: 'Submission deleted' };
    }),
  ];
}
