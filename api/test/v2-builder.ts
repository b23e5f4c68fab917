/**
 * Writes a roadmap v1 JSON snapshot as the v2 API (OData) describes the same moment, so the replay server can serve a
 * v2 twin of every recorded v1 snapshot and a test can read one moment through v2, v1 and RSS. No recording of a
 * real v2 answer exists; the shape is the one third-party clients read: flat items with `products`, `platforms`,
 * `cloudInstances`, `releaseRings` (v1's releasePhase), `generalAvailabilityDate`/`previewAvailabilityDate` as
 * "YYYY-MM", `availabilities` ({ ring, year, month }) and `moreInfoUrls`, and `created`/`modified` with a `Z`.
 *
 * `style: 'objects'` writes the lists as `{ tagName }` objects and availability months as names, the other spellings
 * the client accepts.
 */

interface V1Item {
  id: number | string;
  title: string;
  description?: string | null;
  moreInfoLink?: string | null;
  publicDisclosureAvailabilityDate?: string | null;
  publicPreviewDate?: string | null;
  created: string;
  modified?: string | null;
  status?: string | null;
  tagsContainer?: Record<'products' | 'cloudInstances' | 'releasePhase' | 'platforms', { tagName: string }[] | undefined>;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "February CY2026" → { year: 2026, month: 2 }; anything else → null. */
function monthOf(value: string | null | undefined): { year: number; month: number } | null {
  const m = /^\s*([A-Za-z]+)\s+CY\s*(\d{4})\s*$/.exec(value ?? '');
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === (m[1] ?? '').toLowerCase()) + 1;
  return month ? { year: Number(m[2]), month } : null;
}
const yyyyMm = (d: { year: number; month: number } | null) => (d ? `${d.year}-${String(d.month).padStart(2, '0')}` : null);
const zoned = (noZone: string | null | undefined) => (noZone ? `${noZone.replace(/Z$/, '')}Z` : null);

export function v2ItemFromV1(item: V1Item, style: 'strings' | 'objects' = 'strings'): Record<string, unknown> {
  const c = item.tagsContainer;
  const names = (list: { tagName: string }[] | undefined) => (list ?? []).map((t) => (style === 'objects' ? { tagName: t.tagName } : t.tagName));
  const ga = monthOf(item.publicDisclosureAvailabilityDate);
  const preview = monthOf(item.publicPreviewDate);
  const month = (d: { month: number }) => (style === 'objects' ? MONTHS[d.month - 1] : d.month);
  return {
    id: Number(item.id),
    title: item.title,
    description: item.description ?? null,
    status: item.status ?? null,
    created: zoned(item.created),
    modified: zoned(item.modified ?? item.created),
    products: names(c?.products),
    platforms: names(c?.platforms),
    cloudInstances: names(c?.cloudInstances),
    releaseRings: names(c?.releasePhase),
    generalAvailabilityDate: yyyyMm(ga),
    previewAvailabilityDate: yyyyMm(preview),
    availabilities: [
      ...(ga ? [{ ring: 'General Availability', year: ga.year, month: month(ga) }] : []),
      ...(preview ? [{ ring: 'Preview', year: preview.year, month: month(preview) }] : []),
    ],
    moreInfoUrls: item.moreInfoLink ? [item.moreInfoLink] : [],
  };
}

/** Every item of a v1 snapshot (its text) in v2 form, in the same order. */
export function v2ItemsFromRoadmapJson(json: string, style: 'strings' | 'objects' = 'strings'): Record<string, unknown>[] {
  return (JSON.parse(json.replace(/^\ufeff/, '')) as V1Item[]).map((item) => v2ItemFromV1(item, style));
}
