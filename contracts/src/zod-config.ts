import { z } from 'zod';

/**
 * In browsers zod would compile object parsers with `new Function`, probing for it first; under the product's
 * Content-Security-Policy (no 'unsafe-eval') every probe is a reported CSP violation. The apps parse little, so they
 * parse without eval. The api keeps the compiled parsers (no CSP applies to it).
 */
const inBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined';
if (inBrowser) z.config({ jitless: true });
