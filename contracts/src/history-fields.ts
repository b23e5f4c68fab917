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
  featureStatus: 'Rollout status',
  hasAttachments: 'Attachments',
  isRemoved: 'Removed from the feed',
};

/** The reader's name of a history field; unknown names are split at their capitals ("fooBar" → "Foo Bar"). */
export function historyFieldLabel(field: string): string {
  return HISTORY_FIELD_LABELS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}
