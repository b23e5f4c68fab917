// Writes docs/configuration.md from the config schema (npm run docs:config).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigurationDoc } from '../config-docs.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/configuration.md');
fs.writeFileSync(target, renderConfigurationDoc());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
