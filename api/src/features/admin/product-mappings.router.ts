import { Router } from 'express';
import { idParams, productMappingUpdate } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { NotFoundError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { createProductMappingsRepo } from './product-mappings.repo.js';

/** Product mappings (Admin only): list, initialize from the items, rename / toggle, delete. */
export function createProductMappingsRouter(ctx: AppContext): Router {
  const repo = createProductMappingsRepo(ctx.db);
  const router = Router();

  router.get('/admin/product-mappings', requireAdmin, async (_req, res) => {
    res.json(await repo.list());
  });

  router.post('/admin/product-mappings/initialize', requireAdmin, async (_req, res) => {
    const result = await repo.initialize(ctx.clock.now());
    res.json({ ...result, message: `Created ${result.created} product mappings (${result.total} in total)` });
  });

  router.put('/admin/product-mappings/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    const { displayName, isActive } = parse(productMappingUpdate, req.body);
    const patch = { ...(displayName !== undefined ? { displayName } : {}), ...(isActive !== undefined ? { isActive } : {}) };
    const updated = await repo.update(id, patch, ctx.clock.now());
    if (!updated) throw new NotFoundError(`Product mapping ${id} not found`);
    res.json(updated);
  });

  router.delete('/admin/product-mappings/:id', requireAdmin, async (req, res) => {
    const { id } = parse(idParams, req.params);
    if (!(await repo.remove(id))) throw new NotFoundError(`Product mapping ${id} not found`);
    res.json({ success: true, message: 'Product mapping deleted' });
  });

  return router;
}
