import { formatFeatureStatus, formatTiming, isTimingList } from './rollout.js';
import { healthStatusLabel } from './health-status.js';

/** Change-history field names (as item_history stores them) → what a reader sees, in mails and the dashboard. */
export const HISTORY_FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  status: 'Status',
  releaseDate: 'Release date',
  previewDate: 'Preview date',
  products: 'Products',
  cloudInstances: 'Cloud instances',
  platforms: 'Platforms',
  releasePhase: 'Release phase',
  tags: 'Tags',
  moreInfoLink: 'More info link',
  summary: 'Summary',
  bodyContent: 'Details',
  category: 'Category',
  severity: 'Severity',
  services: 'Services',
  isMajorChange: 'Major change',
  publishedDate: 'Published',
  endDate: 'End date',
  actionRequiredByDate: 'Action required by',
  roadmapIds: 'Roadmap IDs',
  externalLinks: 'Links',
  featureStatus: 'Status for your org',
  timing: 'Rollout timing',
  hasAttachments: 'Attachments',
  isRemoved: 'Removed from the feed',
  healthStatus: 'Status',
  impactDescription: 'Impact',
  classification: 'Classification',
  feature: 'Feature',
  featureGroup: 'Feature group',
  isResolved: 'Resolved',
  startDate: 'Started',
  latestPost: 'Latest update',
  postCount: 'Updates',
  origin: 'Origin',
};

/** The reader's name of a history field; unknown names are split at their capitals ("fooBar" → "Foo Bar"). */
export function historyFieldLabel(field: string): string {
  return HISTORY_FIELD_LABELS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/**
 * A structured history value as readers see it, or null when the field is not one: rollout timing as its windows
 * ("Targeted Release: late July 2026; General availability: mid-August 2026"), the tenant's rollout status per
 * platform ("Mac: Not supported; Web: Launched").
 */
export function structuredHistoryValue(field: string, value: unknown): string | null {
  if (field === 'timing') return isTimingList(value) ? formatTiming(value) || 'No dates given' : null;
  if (field === 'featureStatus') return formatFeatureStatus(value) || null;
  if (field === 'healthStatus') return typeof value === 'string' ? healthStatusLabel(value) : null;
  return null;
}
