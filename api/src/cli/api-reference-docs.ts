// Writes docs/api-reference.md from the endpoint table (npm run docs:api).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderApiReference } from '../features/reference/api-reference.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/api-reference.md');
fs.writeFileSync(target, renderApiReference());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
