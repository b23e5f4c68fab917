import type { ReactElement } from 'react';
import { Stack } from '@mui/material';
import { ActivityTab } from '../../components/ActivityTab/index.js';
import { AiSummaryTab } from '../../components/AiSummary/index.js';
import { AnalyticsTab } from '../../components/AnalyticsTab/index.js';
import { ChangeHistoryTab } from '../../components/ChangeHistoryTab/index.js';
import { ContactFormsTab } from '../../components/ContactFormsTab/index.js';
import { DigestTab } from '../../components/DigestTab/index.js';
import { ImpersonationCard } from '../../components/ImpersonationCard/index.js';
import { ProductsTab } from '../../components/ProductsTab/index.js';
import { RoleManagement } from '../../components/RoleManagement/index.js';
import { SyncHistoryTab } from '../../components/SyncHistoryTab/index.js';

function UsersTab() {
  return (
    <Stack spacing={3}>
      <ImpersonationCard />
      <RoleManagement />
    </Stack>
  );
}

/** The admin tabs in spec order; `id` is the ?tab= value, so a tab can be linked to. */
export const ADMIN_TABS: Array<{ id: string; label: string; render: () => ReactElement }> = [
  { id: 'sync', label: 'Sync History', render: () => <SyncHistoryTab /> },
  { id: 'changes', label: 'Change History', render: () => <ChangeHistoryTab /> },
  { id: 'users', label: 'Users', render: () => <UsersTab /> },
  { id: 'products', label: 'Products', render: () => <ProductsTab /> },
  { id: 'contact', label: 'Contact Forms', render: () => <ContactFormsTab /> },
  { id: 'digest', label: 'Digest', render: () => <DigestTab /> },
  { id: 'analytics', label: 'Analytics', render: () => <AnalyticsTab /> },
  { id: 'ai-summary', label: 'AI Summary', render: () => <AiSummaryTab /> },
  { id: 'activity', label: 'Activity', render: () => <ActivityTab /> },
];
