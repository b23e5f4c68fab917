import type { FeedFormat } from '@radar/contracts';
import { ROADMAP_FORMAT_NAMES, type RoadmapFeedFormat } from '../../sources/roadmap-feed.js';
import type { SourceChain } from './fetched.js';

const nameOf = (format: FeedFormat) => ROADMAP_FORMAT_NAMES[format as RoadmapFeedFormat] ?? format;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What a run says about the source it read, compared with the previous run that read a live feed:
 *  - `warning`, once, when the run read a later source of the chain than the one before it did (the preferred source
 *    stopped working, or a fallback did too), with the reasons; later runs of the same source say it in their note
 *    only, so the admin is told once per change, not every hour;
 *  - `recovered`, when the preferred source is read again after runs that could not read it.
 */
export function sourceChange(
  previous: FeedFormat | null,
  used: FeedFormat,
  chain: SourceChain | undefined,
): { warning: string | null; recovered: string | null } {
  if (!chain) return { warning: null, recovered: null };
  if (used === chain.preferred) {
    const recovered = previous && previous !== used ? `${capitalise(nameOf(used))} works again (the previous run read ${nameOf(previous)}).` : null;
    return { warning: null, recovered };
  }
  if (previous === used) return { warning: null, recovered: null };
  const reasons = chain.skipped.map((s) => `${nameOf(s.format)}: ${s.reason}`).join('; ');
  return {
    warning: `The roadmap is now read from ${nameOf(used)}: ${nameOf(chain.preferred)} stopped working (${reasons}). It is tried first on every run; Sync History says when it works again.`,
    recovered: null,
  };
}
