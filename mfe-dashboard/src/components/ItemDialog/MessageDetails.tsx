import { Box, Chip, Divider, Stack, Typography } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { displayTags, formatDate, useUserRoles } from '@radar/shared-ui';
import { useItemHistory, useLinkedItems, useMessageItem } from '../../api/items.js';
import { ChangeHistory } from '../ChangeHistory/index.js';
import { CommunityResources } from '../CommunityResources/index.js';
import { AttachmentList, MessageBody, RolloutTiming, TenantStatus } from '../MessageSections/index.js';
import { Field, SectionHeading } from './Field.js';
import { RelatedItems } from './RelatedItems.js';

export interface MessageDetailsProps {
  item: UnifiedItem;
  onOpenItem: (item: UnifiedItem) => void;
  now: Date;
}

/** Body of the message detail dialog. */
export function MessageDetails({ item, onOpenItem, now }: MessageDetailsProps) {
  const { isModerator } = useUserRoles();
  const history = useItemHistory('messages', item.messageId);
  const linked = useLinkedItems('messages', item.messageId);
  // The post's sections and the status for the tenant (the list row has neither); the row's body shows meanwhile.
  const detail = useMessageItem(item.messageId);
  const timing = detail.data?.timing ?? item.timing ?? [];
  const tenantStatus = detail.data?.tenantStatus ?? [];
  const tags = displayTags(item, Number.POSITIVE_INFINITY).all;
  const files = detail.data?.attachmentFiles ?? [];
  const tenants = detail.data?.tenants ?? [];
  const attachments = Math.max(item.attachments?.length ?? 0, files.length);
  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
        <Field label="Affected Service(s)">{(item.service ?? []).join(', ') || item.services}</Field>
        <Field label="Tag(s)">
          {tags.length ? (
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {tags.map((tag) => (
                <Chip key={tag} size="small" variant="outlined" label={tag} color={tag === 'Major change' ? 'warning' : 'default'} />
              ))}
            </Stack>
          ) : null}
        </Field>
        <Field label="Platform(s)">{item.platforms}</Field>
        <Field label="Value">{item.value}</Field>
      </Box>
      <Box component="section">
        <SectionHeading>Summary</SectionHeading>
        {item.summary?.trim() ? <Typography variant="body2">{item.summary}</Typography> : <Typography color="text.secondary">No summary available</Typography>}
      </Box>
      {timing.length ? (
        <Box component="section">
          <SectionHeading>Rollout Timing</SectionHeading>
          <RolloutTiming timing={timing} />
        </Box>
      ) : null}
      {tenantStatus.length ? (
        <Box component="section">
          <SectionHeading>Status for Your Org</SectionHeading>
          <TenantStatus entries={tenantStatus} />
        </Box>
      ) : null}
      {item.bodyContent?.trim() ? (
        <Box component="section">
          <SectionHeading>Details</SectionHeading>
          <MessageBody bodyContent={detail.data?.bodyContent ?? item.bodyContent} sections={detail.data?.sections} />
        </Box>
      ) : null}
      {tenants.length ? (
        <Box component="section" aria-label="Tenants">
          <SectionHeading>{`Received by ${tenants.length} ${tenants.length === 1 ? 'tenant' : 'tenants'}`}</SectionHeading>
          <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2 }}>
            {tenants.map((tenant) => (
              <Typography key={tenant.id} component="li" variant="body2">
                {tenant.name}: since {formatDate(tenant.firstSeen)}
                {tenant.expired ? ' (no longer listed)' : ''}
              </Typography>
            ))}
          </Stack>
        </Box>
      ) : null}
      <Box component="section">
        <SectionHeading>Timeline</SectionHeading>
        <Stack direction="row" spacing={4}>
          <Field label="Published">{formatDate(item.publishedDate)}</Field>
          <Field label="Last Updated">{formatDate(item.lastUpdatedDate)}</Field>
        </Stack>
      </Box>
      <Box component="section">
        <SectionHeading>Related Roadmap Items</SectionHeading>
        <RelatedItems kind="roadmap" items={linked.data} isLoading={linked.isLoading} error={linked.error} onView={onOpenItem} now={now} />
      </Box>
      {detail.data?.relatedIssues?.length ? (
        <Box component="section">
          <SectionHeading>Service Health Around This Post</SectionHeading>
          <RelatedItems kind="health" items={detail.data.relatedIssues} isLoading={false} error={null} onView={onOpenItem} now={now} />
        </Box>
      ) : null}
      {item.thirdPartyLinks.length > 0 ? <CommunityResources links={item.thirdPartyLinks} moderatedBy={item.moderatedBy} /> : null}
      {isModerator && item.moderatorNotes ? (
        <Box component="section">
          <SectionHeading>Moderator Notes</SectionHeading>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {item.moderatorNotes}
          </Typography>
        </Box>
      ) : null}
      {item.userImpact || item.adminImpact || attachments > 0 ? (
        <Stack spacing={1}>
          {item.userImpact ? <Field label="User Impact">This change affects users.</Field> : null}
          {item.adminImpact ? <Field label="Admin Impact">This change requires admin attention.</Field> : null}
          {attachments > 0 ? <Typography variant="body2">{attachments} attachment(s) available</Typography> : null}
          {files.length > 0 ? <AttachmentList files={files} /> : null}
        </Stack>
      ) : null}
      <Box component="section">
        <SectionHeading>Change History</SectionHeading>
        <ChangeHistory
          entries={history.data}
          isLoading={history.isLoading}
          error={history.error}
          compare={item.messageId ? { source: 'messages', id: item.messageId } : undefined}
        />
      </Box>
    </Stack>
  );
}
