import type { RelevanceLevel } from '@radar/contracts';

/**
 * The relevance levels, most relevant first: contracts' RELEVANCE_LEVELS (a test keeps them equal). Written out here
 * because contracts' relevance module builds an `Intl.ListFormat` as it loads, and the list's first paint must not
 * load the browser's ICU data for it (docs/frontend.md).
 */
export const RELEVANCE_ORDER = ['high', 'medium', 'low', 'unknown'] as const satisfies readonly RelevanceLevel[];

export const RELEVANCE_LABELS: Readonly<Record<RelevanceLevel, string>> = { high: 'High', medium: 'Medium', low: 'Low', unknown: 'Unknown' };

export const isRelevanceLevel = (value: string): value is RelevanceLevel => (RELEVANCE_ORDER as readonly string[]).includes(value);
