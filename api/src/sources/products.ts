/**
 * Roadmap product names that differ only in case are one product ("Microsoft 365 admin center" 31
 * items and "Microsoft 365 Admin Center" 23). The spelling must be deterministic, or a re-sync would flip an
 * item's products and write a change that is not one. Rule: a known canonical spelling wins (Microsoft's own
 * style, sentence-case "admin center"); otherwise the spelling most used in the snapshot, ties broken by code
 * point order so the choice never depends on array order.
 */
export const CANONICAL_PRODUCTS = [
  'Microsoft Copilot (Microsoft 365)',
  'Microsoft Purview',
  'Microsoft Teams',
  'Outlook',
  'Microsoft Viva',
  'SharePoint',
  'PowerPoint',
  'Word',
  'Microsoft 365 app',
  'Microsoft Edge',
  'Microsoft 365',
  'Excel',
  'OneDrive',
  'Microsoft Intune',
  'Microsoft 365 admin center',
  'OneNote',
  'Microsoft Defender for Office 365',
  'Microsoft Clipchamp',
  'Planner',
  'Forms',
  'Microsoft Entra',
  'Exchange',
  'Windows 365',
  'Universal Print',
  'Microsoft Information Protection',
  'Microsoft 365 Defender',
  'Microsoft To Do',
  'Whiteboard',
  'Microsoft Stream',
  'Minecraft Education',
  'Microsoft Project',
  'Access',
  'SharePoint Syntex',
  'Windows',
  'Office 365',
  'Bookings',
  'Microsoft Graph',
  'Microsoft Search',
  'Teams and Surface Devices',
] as const;

const foldKey = (name: string) => name.toLocaleLowerCase('en-US');
const known = new Map<string, string>(CANONICAL_PRODUCTS.map((p) => [foldKey(p), p]));

/** Builds a name → canonical spelling function from every product name seen in one snapshot. */
export function productCanonicalizer(allNames: Iterable<string>): (name: string) => string {
  const counts = new Map<string, Map<string, number>>();
  for (const name of allNames) {
    const key = foldKey(name);
    const spellings = counts.get(key) ?? new Map<string, number>();
    spellings.set(name, (spellings.get(name) ?? 0) + 1);
    counts.set(key, spellings);
  }
  const chosen = new Map<string, string>();
  for (const [key, spellings] of counts) {
    const knownSpelling = known.get(key);
    if (knownSpelling) {
      chosen.set(key, knownSpelling);
      continue;
    }
    const best = [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0];
    chosen.set(key, best[0]);
  }
  return (name) => chosen.get(foldKey(name)) ?? known.get(foldKey(name)) ?? name;
}
