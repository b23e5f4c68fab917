/**
 * The roadmap's tag values by kind, as the v1 JSON feed sorts them into `tagsContainer` (docs/ingestion.md, "Quirks handled"). The RSS
 * feed gives the same values as a flat list of <category> elements in a fixed order (status, release phases, cloud
 * instances, products, platforms) without saying which is which, so the RSS mapping needs to know them.
 *
 * These are every value the recorded feeds hold. The sync adds whatever it has stored from the JSON feed
 * (distinctStoredVocabulary), so a value Microsoft introduces later is known once the JSON feed has carried it.
 */
export interface RoadmapVocabulary {
  statuses: ReadonlySet<string>;
  releasePhases: ReadonlySet<string>;
  cloudInstances: ReadonlySet<string>;
  platforms: ReadonlySet<string>;
}

export const KNOWN_STATUSES = ['Launched', 'In development', 'Rolling out', 'Cancelled'];
export const KNOWN_RELEASE_PHASES = [
  'General Availability',
  'Preview',
  'Targeted Release',
  'Current Channel',
  'Targeted Release (Entire Organization)',
  'Targeted Release (Select People)',
];
export const KNOWN_CLOUD_INSTANCES = ['Worldwide (Standard Multi-Tenant)', 'GCC', 'GCC High', 'DoD'];
export const KNOWN_PLATFORMS = ['Web', 'Desktop', 'Mac', 'iOS', 'Android', 'Teams and Surface Devices', 'Developer', 'Linux', 'Mobile'];

export interface VocabularyExtra {
  statuses?: Iterable<string>;
  releasePhases?: Iterable<string>;
  cloudInstances?: Iterable<string>;
  platforms?: Iterable<string>;
}

export function roadmapVocabulary(extra: VocabularyExtra = {}): RoadmapVocabulary {
  return {
    statuses: new Set([...KNOWN_STATUSES, ...(extra.statuses ?? [])]),
    releasePhases: new Set([...KNOWN_RELEASE_PHASES, ...(extra.releasePhases ?? [])]),
    cloudInstances: new Set([...KNOWN_CLOUD_INSTANCES, ...(extra.cloudInstances ?? [])]),
    platforms: new Set([...KNOWN_PLATFORMS, ...(extra.platforms ?? [])]),
  };
}

export interface ClassifiedCategories {
  status: string | null;
  releasePhase: string[];
  cloudInstances: string[];
  products: string[];
  platforms: string[];
}

/** How many of the first entries of `list` pass `test`. */
function leadingRun(list: string[], test: (category: string) => boolean): number {
  const end = list.findIndex((category) => !test(category));
  return end === -1 ? list.length : end;
}

/**
 * Splits an RSS item's categories by their fixed order: the first is the status; then the run of release phases,
 * then the run of cloud instances; of the rest, the trailing run of platforms is platforms and everything before
 * it is products. Product names are open-ended (39 and counting), so they are what is left, not what is known.
 */
export function classifyCategories(categories: string[], vocabulary: RoadmapVocabulary): ClassifiedCategories {
  const [first] = categories;
  const status = first !== undefined && !vocabulary.releasePhases.has(first) && !vocabulary.cloudInstances.has(first) ? first : null;
  let rest = status === null ? categories : categories.slice(1);
  const releasePhase = rest.slice(
    0,
    leadingRun(rest, (c) => isReleasePhase(c, vocabulary)),
  );
  rest = rest.slice(releasePhase.length);
  const cloudInstances = rest.slice(
    0,
    leadingRun(rest, (c) => vocabulary.cloudInstances.has(c)),
  );
  rest = rest.slice(cloudInstances.length);
  const productCount = rest.length - leadingRun([...rest].reverse(), (c) => vocabulary.platforms.has(c));
  return { status, releasePhase, cloudInstances, products: rest.slice(0, productCount), platforms: rest.slice(productCount) };
}

/** Microsoft has added "Targeted Release (…)" variants before; any of them is a release phase. */
function isReleasePhase(value: string, vocabulary: RoadmapVocabulary): boolean {
  return vocabulary.releasePhases.has(value) || /^Targeted Release\b/.test(value);
}
