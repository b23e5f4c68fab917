import { Box, Chip, Divider, Stack, Typography } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { formatDate, formatReleaseDate, ItemStatusBadge, useUserRoles } from '@radar/shared-ui';
import { useItemHistory, useLinkedItems, useRoadmapRelatedIssues } from '../../api/items.js';
import { ChangeHistory } from '../ChangeHistory/index.js';
import { CommunityResources } from '../CommunityResources/index.js';
import { DateSlips } from '../DateSlips/index.js';
import { SafeHtml } from '../SafeHtml/index.js';
import { Field, SectionHeading } from './Field.js';
import { RelatedItems } from './RelatedItems.js';

const splitList = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export interface RoadmapDetailsProps {
  item: UnifiedItem;
  onOpenItem: (item: UnifiedItem) => void;
  now: Date;
}

/** Body of the roadmap detail dialog. */
export function RoadmapDetails({ item, onOpenItem, now }: RoadmapDetailsProps) {
  const { isModerator } = useUserRoles();
  const history = useItemHistory('roadmap', item.itemId);
  const linked = useLinkedItems('roadmap', item.itemId);
  // Only said when there are some: most roadmap items never meet an incident.
  const issues = useRoadmapRelatedIssues(item.itemId);
  const products = splitList(item.product);
  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
        <Field label="Status">{item.status ? <ItemStatusBadge status={item.status} /> : null}</Field>
        <Field label="Product(s)">
          {products.length ? (
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {products.map((p) => (
                <Chip key={p} size="small" variant="outlined" label={p} />
              ))}
            </Stack>
          ) : null}
        </Field>
        <Field label="Cloud Instances">{splitList(item.cloudInstances).join(', ')}</Field>
        <Field label="Release Phase">{item.releasePhase}</Field>
        <Field label="Platforms">{splitList(item.platforms).join(', ')}</Field>
        <Field label="Expected Release">{formatReleaseDate(item.releaseDate)}</Field>
      </Box>
      {item.releaseMoves && item.releaseMoves.total > 0 ? <DateSlips stats={item.releaseMoves} history={history.data} /> : null}
      <Box component="section">
        <SectionHeading>Description</SectionHeading>
        {item.description?.trim() ? <SafeHtml html={item.description} /> : <Typography color="text.secondary">No description available</Typography>}
      </Box>
      {item.thirdPartyLinks.length > 0 ? <CommunityResources links={item.thirdPartyLinks} moderatedBy={item.moderatedBy} /> : null}
      {isModerator && item.moderatorNotes ? (
        <Box component="section">
          <SectionHeading>Moderator Notes</SectionHeading>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {item.moderatorNotes}
          </Typography>
        </Box>
      ) : null}
      <Box component="section">
        <SectionHeading>Timeline</SectionHeading>
        <Stack direction="row" spacing={4}>
          <Field label="Created">{formatDate(item.createdDate)}</Field>
          <Field label="Last Modified">{formatDate(item.modifiedDate)}</Field>
        </Stack>
      </Box>
      <Box component="section">
        <SectionHeading>Related Message Center Items</SectionHeading>
        <RelatedItems kind="messages" items={linked.data} isLoading={linked.isLoading} error={linked.error} onView={onOpenItem} now={now} />
      </Box>
      {issues.data?.length ? (
        <Box component="section">
          <SectionHeading>Service Health Around This Item</SectionHeading>
          <RelatedItems kind="health" items={issues.data} isLoading={false} error={null} onView={onOpenItem} now={now} />
        </Box>
      ) : null}
      <Box component="section">
        <SectionHeading>Change History</SectionHeading>
        <ChangeHistory
          entries={history.data}
          isLoading={history.isLoading}
          error={history.error}
          compare={item.itemId ? { source: 'roadmap', id: item.itemId } : undefined}
        />
      </Box>
    </Stack>
  );
}
