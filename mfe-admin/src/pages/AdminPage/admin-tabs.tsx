import type { ReactElement } from 'react';
import { Stack } from '@mui/material';
import { lazyNamed } from '@radar/shared-ui';
import { SyncHistoryTab } from '../../components/SyncHistoryTab/index.js';

// The first tab comes with the page; every other tab (the analytics charts among them) is fetched when opened.
const ActivityTab = lazyNamed(() => import('../../components/ActivityTab/ActivityTab.js'), 'ActivityTab');
const AiSummaryTab = lazyNamed(() => import('../../components/AiSummary/AiSummaryTab.js'), 'AiSummaryTab');
const AnalyticsTab = lazyNamed(() => import('../../components/AnalyticsTab/AnalyticsTab.js'), 'AnalyticsTab');
const ChangeHistoryTab = lazyNamed(() => import('../../components/ChangeHistoryTab/ChangeHistoryTab.js'), 'ChangeHistoryTab');
const ContactFormsTab = lazyNamed(() => import('../../components/ContactFormsTab/ContactFormsTab.js'), 'ContactFormsTab');
const DigestTab = lazyNamed(() => import('../../components/DigestTab/DigestTab.js'), 'DigestTab');
const ImpersonationCard = lazyNamed(() => import('../../components/ImpersonationCard/ImpersonationCard.js'), 'ImpersonationCard');
const ProductsTab = lazyNamed(() => import('../../components/ProductsTab/ProductsTab.js'), 'ProductsTab');
const RemotesTab = lazyNamed(() => import('../../components/RemotesTab/RemotesTab.js'), 'RemotesTab');
const TenantsTab = lazyNamed(() => import('../../components/TenantsTab/TenantsTab.js'), 'TenantsTab');
const TrackersTab = lazyNamed(() => import('../../components/TrackersTab/TrackersTab.js'), 'TrackersTab');
const TriageRulesTab = lazyNamed(() => import('../../components/TriageRulesTab/TriageRulesTab.js'), 'TriageRulesTab');
const TriageStartCard = lazyNamed(() => import('../../components/TriageStartCard/TriageStartCard.js'), 'TriageStartCard');
const RoleManagement = lazyNamed(() => import('../../components/RoleManagement/RoleManagement.js'), 'RoleManagement');

function UsersTab() {
  return (
    <Stack spacing={3}>
      <ImpersonationCard />
      <RoleManagement />
    </Stack>
  );
}

/** Triage: the starting lines and settings, then the rules. */
function TriageTab() {
  return (
    <Stack spacing={3}>
      <TriageStartCard />
      <TriageRulesTab />
    </Stack>
  );
}

/** The admin tabs in their order (docs/product/admin.md); `id` is the ?tab= value, so a tab can be linked to. */
export const ADMIN_TABS: Array<{ id: string; label: string; render: () => ReactElement }> = [
  { id: 'sync', label: 'Sync History', render: () => <SyncHistoryTab /> },
  { id: 'changes', label: 'Change History', render: () => <ChangeHistoryTab /> },
  { id: 'users', label: 'Users', render: () => <UsersTab /> },
  { id: 'tenants', label: 'Tenants', render: () => <TenantsTab /> },
  { id: 'products', label: 'Products', render: () => <ProductsTab /> },
  { id: 'triage-rules', label: 'Triage', render: () => <TriageTab /> },
  { id: 'integrations', label: 'Trackers', render: () => <TrackersTab /> },
  { id: 'contact', label: 'Contact Forms', render: () => <ContactFormsTab /> },
  { id: 'digest', label: 'Digest', render: () => <DigestTab /> },
  { id: 'analytics', label: 'Analytics', render: () => <AnalyticsTab /> },
  { id: 'ai-summary', label: 'AI Summary', render: () => <AiSummaryTab /> },
  { id: 'activity', label: 'Activity', render: () => <ActivityTab /> },
  { id: 'remotes', label: 'Remotes', render: () => <RemotesTab /> },
];
