import { z } from 'zod';
import { DEFAULT_RELEVANCE_THRESHOLDS, relevanceThresholds, type RelevanceThresholds } from '@radar/contracts';

/**
 * The relevance thresholds as settings (docs/product/relevance.md, "Thresholds"): each key is one field of the
 * contracts' `relevanceThresholds`, which decides what a valid set is (shares above 0 and at most 1, counts whole
 * from 1, Medium's not above High's), so the api and an admin's form can never disagree on it.
 */
const KEYS = {
  highShare: 'RELEVANCE_HIGH_SHARE',
  highUsers: 'RELEVANCE_HIGH_USERS',
  mediumShare: 'RELEVANCE_MEDIUM_SHARE',
  mediumUsers: 'RELEVANCE_MEDIUM_USERS',
} as const satisfies Record<keyof RelevanceThresholds, string>;

type RelevanceKey = (typeof KEYS)[keyof typeof KEYS];

const number = (field: keyof RelevanceThresholds, description: string) => z.coerce.number().default(DEFAULT_RELEVANCE_THRESHOLDS[field]).meta({ description });

/** The keys, spread into the config schema (config.ts); checked together by `relevanceConfigErrors`. */
export const relevanceConfigKeys = {
  [KEYS.highShare]: number(
    'highShare',
    "relevance (docs/product/relevance.md): an item is High for a tenant when at least this share of the licensed users of a workload it depends on were active (0.5 is 50 %; above 0, at most 1); a change applies at each tenant's next sync",
  ),
  [KEYS.highUsers]: number('highUsers', 'relevance: High also when at least this many people were active, whatever the share (a whole number from 1)'),
  [KEYS.mediumShare]: number(
    'mediumShare',
    'relevance: Medium from this share of the licensed users active, Low below both it and RELEVANCE_MEDIUM_USERS (above 0, not above RELEVANCE_HIGH_SHARE)',
  ),
  [KEYS.mediumUsers]: number('mediumUsers', 'relevance: Medium also from this many people active (a whole number from 1, not above RELEVANCE_HIGH_USERS)'),
} satisfies Record<RelevanceKey, z.ZodType>;

type RelevanceSettings = Record<RelevanceKey, number>;

function parse(config: RelevanceSettings) {
  return relevanceThresholds.safeParse({
    highShare: config.RELEVANCE_HIGH_SHARE,
    highUsers: config.RELEVANCE_HIGH_USERS,
    mediumShare: config.RELEVANCE_MEDIUM_SHARE,
    mediumUsers: config.RELEVANCE_MEDIUM_USERS,
  });
}

/** What is wrong with the configured thresholds, one line per key (`KEY: message`, fields named as their keys); [] when nothing. */
export function relevanceConfigErrors(config: RelevanceSettings): string[] {
  const parsed = parse(config);
  if (parsed.success) return [];
  const named = (text: string) => text.replace(/\b(highShare|highUsers|mediumShare|mediumUsers)\b/g, (field) => KEYS[field as keyof RelevanceThresholds]);
  return parsed.error.issues.map((issue) => {
    const key = KEYS[issue.path[0] as keyof RelevanceThresholds];
    const message = named(issue.message);
    return `  ${key}: ${message.startsWith(`${key} `) ? message.slice(key.length + 1) : message}`;
  });
}

/** The thresholds relevance is computed with (the configuration was checked at start: `relevanceConfigErrors`). */
export function relevanceThresholdsOf(config: RelevanceSettings): RelevanceThresholds {
  const parsed = parse(config);
  if (!parsed.success) throw new Error(`Invalid relevance thresholds:\n${relevanceConfigErrors(config).join('\n')}`);
  return parsed.data;
}
