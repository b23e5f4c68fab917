import type { Router } from 'express';
import type { AppContext } from '../app-context.js';
import { createContactRouter } from './contact/contact.router.js';

/**
 * Every feature's router, mounted under /api by app.ts in this order. A feature adds one line here.
 * Each factory receives the app context (base dependencies + services).
 */
export const featureRouters: Array<(ctx: AppContext) => Router> = [
  createContactRouter,
];
