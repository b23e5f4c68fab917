import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { contactRequest, idParams } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { NotFoundError, RateLimitError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { createContactRepo } from './contact.repo.js';

/** POST /api/contact for visitors; reading, marking and deleting submissions is Admin only. */
export function createContactRouter(ctx: AppContext): Router {
  const repo = createContactRepo(ctx.db);
  const router = Router();
  const limiter = rateLimit({
    windowMs: 15 * 60 * 1000,
    limit: 10,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError('Too many messages from this address. Please try again later.')),
  });

  router.post('/contact', limiter, async (req, res) => {
    const input = parse(contactRequest, req.body);
    const submission = await repo.insert(input, ctx.clock.now());
    ctx.log.info({ contactId: submission.id }, 'contact form submitted');
    res.status(201).json({ success: true, message: 'Thank you! Your message has been sent.', id: submission.id });
  });

  router.get('/admin/contact-submissions', requireAdmin, async (_req, res) => {
    res.json(await repo.list());
  });

  router.patch('/admin/contact-submissions/:id/read', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    const updated = await repo.markRead(id, ctx.clock.now());
    if (!updated) throw new NotFoundError(`Contact submission ${id} not found`);
    res.json(updated);
  });

  router.delete('/admin/contact-submissions/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    if (!(await repo.remove(id))) throw new NotFoundError(`Contact submission ${id} not found`);
    res.json({ success: true, message: 'Submission deleted' });
  });

  return router;
}
