import type { UnifiedItem } from '@radar/contracts';
import { ChipList, displayTags, formatDate, formatReleaseDate, HealthStatusBadge, ItemStatusBadge } from '@radar/shared-ui';
import { DigestTable, type DigestColumn } from './DigestTable.js';

const ROADMAP_COLUMNS: DigestColumn[] = [
  { header: 'Product', cell: (item) => item.product || '—' },
  { header: 'Status', cell: (item) => <ItemStatusBadge status={item.status} /> },
  { header: 'Release Date', cell: (item) => formatReleaseDate(item.releaseDate), nowrap: true },
];

/** A message's services: the list when present, else the comma-separated text. */
export function servicesOf(item: Pick<UnifiedItem, 'service' | 'services'>): string[] {
  const list = item.service?.length ? item.service : (item.services ?? '').split(',');
  return list.map((s) => s.trim()).filter(Boolean);
}

const MESSAGE_COLUMNS: DigestColumn[] = [
  { header: 'Services', cell: (item) => <ChipList values={servicesOf(item)} noun="services" /> },
  { header: 'Tags', cell: (item) => <ChipList values={displayTags(item).all} noun="tags" /> },
  { header: 'Published', cell: (item) => formatDate(item.publishedDate), nowrap: true },
  { header: 'Last Updated', cell: (item) => formatDate(item.lastUpdatedDate), nowrap: true },
];

const INCIDENT_COLUMNS: DigestColumn[] = [
  { header: 'Service', cell: (item) => <ChipList values={servicesOf(item)} noun="services" /> },
  { header: 'Status', cell: (item) => <HealthStatusBadge status={item.status} isResolved={item.isResolved} /> },
  { header: 'Started', cell: (item) => formatDate(item.createdDate), nowrap: true },
  { header: 'Last Updated', cell: (item) => formatDate(item.lastUpdatedDate), nowrap: true },
];

/** Service Health incidents: ID, Title, Service, Status (in words, resolved or not), Started, Last Updated. */
export function IncidentDigestTable({ title, items }: { title: string; items: UnifiedItem[] }) {
  return <DigestTable title={title} items={items} columns={INCIDENT_COLUMNS} />;
}

/** Roadmap items: ID, Title, Product, Status (coloured badge with its text), Release Date. */
export function RoadmapDigestTable({ title, items }: { title: string; items: UnifiedItem[] }) {
  return <DigestTable title={title} items={items} columns={ROADMAP_COLUMNS} />;
}

/** Message Center posts: ID, Title, Services (2 + '+N'), Tags (shared ordering, 2 + '+N'), Published, Last Updated. */
export function MessageDigestTable({ title, items }: { title: string; items: UnifiedItem[] }) {
  return <DigestTable title={title} items={items} columns={MESSAGE_COLUMNS} />;
}
