import { describe, expect, it } from '@jest/globals';
import { usageMappingOf, usageNameKey } from '@radar/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageRecordsFromPayload, parseJsonText, roadmapRecordsFromPayload } from '../../src/sources/normalize.js';
import { FEED_PRODUCT_NAMES, FEED_SERVICE_NAMES } from '../../../contracts/src/usage-workloads.names.js';

/**
 * Every Message Center service and roadmap product in the recorded feeds (../shared/fixtures/m365: every
 * messages-*.json and roadmap-v1-*.json there, so a new snapshot is read as soon as it is added), read as the sync
 * reads them, is in the usage mapping, mapped or deliberately unmapped (contracts/src/usage-workloads.ts), and in the
 * checked-in list the normal suite tests the mapping with (contracts/src/usage-workloads.names.ts). A new name fails
 * here: decide its workloads or why it has none, then regenerate the list (contracts/scripts/gen-usage-names.ts).
 *
 * Outside CI the suite is skipped when the folder is absent; in CI (CI=true) a missing folder fails it.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'm365');
const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).sort() : [];
const messageFiles = files.filter((f) => /^messages-.*\.json$/.test(f));
const roadmapFiles = files.filter((f) => /^roadmap-v1-.*\.json$/.test(f));
const present = messageFiles.length > 0 && roadmapFiles.length > 0;
const read = (f: string) => parseJsonText(fs.readFileSync(path.join(DIR, f), 'utf8'), f);

if (!present && process.env.CI === 'true') {
  describe('usage mapping against the recorded feeds', () => {
    it('needs the recorded feeds in CI', () => {
      throw new Error(`test:real-data: ${DIR} must hold messages-*.json and roadmap-v1-*.json (CI runs with ../shared beside the clone)`);
    });
  });
} else if (!present) {
  describe.skip(`usage mapping against the recorded feeds (${DIR} not found)`, () => {
    it('knows every name', () => undefined);
  });
} else {
  describe('usage mapping against the recorded feeds', () => {
    const services = new Set(messageFiles.flatMap((f) => messageRecordsFromPayload(read(f)).flatMap((m) => m.services)));
    const products = new Set(roadmapFiles.flatMap((f) => roadmapRecordsFromPayload(read(f)).flatMap((r) => r.products)));
    const listed = new Set([...FEED_SERVICE_NAMES, ...FEED_PRODUCT_NAMES].map(usageNameKey));

    it.each([
      ['Message Center service', services],
      ['roadmap product', products],
    ])('maps every %s or leaves it unmapped on purpose', (_, names) => {
      expect(names.size).toBeGreaterThan(0);
      expect([...names].filter((n) => usageMappingOf(n).kind === 'unknown')).toEqual([]);
    });

    it('has every name in the checked-in list (regenerate it with contracts/scripts/gen-usage-names.ts)', () => {
      expect([...services, ...products].filter((n) => !listed.has(usageNameKey(n)))).toEqual([]);
    });
  });
}
