import { CHANGE_VALUE_PREVIEW_CHARS } from '@radar/contracts';
import { htmlToPlainText } from '../items/html.js';

/** Field names as item_history stores them → what a reader sees in a mail. */
const FIELD_LABELS: Record<string, string> = {
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
};

/** Bookkeeping fields the change history ignores (spec 01, Change History); isRemoved is told as removal/restore. */
const HIDDEN_FIELDS = new Set(['lastModified', 'lastUpdated', 'modifiedDate', 'isRemoved', 'reason']);

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

export function isShownField(field: string): boolean {
  return !HIDDEN_FIELDS.has(field);
}

function truncate(text: string, max = CHANGE_VALUE_PREVIEW_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A history value as one readable line, cut at the spec's 300-character preview. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) {
      return new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    }
    return truncate(htmlToPlainText(value).replace(/\s+/g, ' ')) || '(none)';
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    const parts = value.map((v) => (v && typeof v === 'object' ? ('name' in v ? String((v as { name: unknown }).name) : JSON.stringify(v)) : String(v)));
    return truncate(parts.join(', '));
  }
  return truncate(JSON.stringify(value));
}
