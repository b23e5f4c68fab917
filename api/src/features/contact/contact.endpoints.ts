import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { perAddressLimiter } from '../../http/rate-limit-store.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { createContactRepo } from './contact.repo.js';

/** POST /api/contact for visitors, limited per address; admins read the submissions in the admin group. */
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
  ];
}
