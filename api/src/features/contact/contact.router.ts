import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { perAddressLimiter } from '../../http/rate-limit-store.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../http/errors.js';
import { createContactRepo } from './contact.repo.js';

/** POST /api/contact for visitors; reading, marking and deleting submissions is Admin only. */
export function createContactEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createContactRepo(ctx.db);
  const limiter = perAddressLimiter({
    name: 'contact',
    windowMs: 15 * 60 * 1000,
    limit: 10,
    message: 'Too many messages from this address. Please try again later.',
  });

  return [
    implement(
      endpoints.contact.submit,
      async ({ body }) => {
        const submission = await repo.insert(body, ctx.clock.now());
        ctx.log.info({ contactId: submission.id }, 'contact form submitted');
        return { success: true, message: 'Thank you! Your message has been sent.', id: submission.id };
      },
      { middleware: [limiter] },
    ),
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
