import { Alert, Box, Button, Chip, Divider, Skeleton, Stack, Typography } from '@mui/material';
import { HEALTH_CLASSIFICATION_LABELS, type HealthClassification, type UnifiedItem } from '@radar/contracts';
import { formatChangeDate, formatDate, HealthStatusBadge } from '@radar/shared-ui';
import { useHealthHistory, useHealthIssue } from '../../api/items.js';
import { ChangeHistory } from '../ChangeHistory/index.js';
import { SafeHtml } from '../SafeHtml/index.js';
import { Field, SectionHeading } from './Field.js';
import { RelatedItems } from './RelatedItems.js';

export interface HealthDetailsProps {
  item: UnifiedItem;
  onOpenItem: (item: UnifiedItem) => void;
  now: Date;
}

const POST_TYPES: Record<string, string> = { quick: 'Quick update', strategic: 'Strategic update' };

/**
 * Body of the Service Health dialog: where the issue stands, its impact, the statuses it went through, every update
 * Microsoft posted (oldest first, as the admin center reads), the post-incident report, the tenants that saw it, and
 * the Message Center posts and roadmap items of the same service around the same weeks.
 */
export function HealthDetails({ item, onOpenItem, now }: HealthDetailsProps) {
  const issueId = item.issueId ?? null;
  const detail = useHealthIssue(issueId);
  const history = useHealthHistory(issueId);
  const issue = detail.data;
  const classification = issue?.classification ?? item.category ?? null;
  const classificationLabel = classification ? (HEALTH_CLASSIFICATION_LABELS[classification as HealthClassification] ?? classification) : null;
  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
        <Field label="Status">
          <HealthStatusBadge status={item.status} isResolved={item.isResolved} />
        </Field>
        <Field label="Classification">{classificationLabel}</Field>
        <Field label="Service">{(item.service ?? []).join(', ') || item.services}</Field>
        <Field label="Feature">{issue ? [issue.featureGroup, issue.feature].filter((v, i, all) => v && all.indexOf(v) === i).join(' · ') : null}</Field>
        <Field label="Started">{formatChangeDate(item.createdDate)}</Field>
        <Field label="Ended">{item.endDate ? formatChangeDate(item.endDate) : item.isResolved ? null : 'Ongoing'}</Field>
      </Box>
      <Box component="section">
        <SectionHeading>User Impact</SectionHeading>
        {item.summary?.trim() ? <Typography variant="body2">{item.summary}</Typography> : <Typography color="text.secondary">No impact description</Typography>}
      </Box>
      {detail.error ? <Alert severity="error">Failed to fetch the issue&apos;s updates</Alert> : null}
      <Box component="section" aria-label="Status timeline">
        <SectionHeading>Status Timeline</SectionHeading>
        {detail.isLoading ? (
          <Skeleton variant="rounded" height={48} aria-label="Loading status timeline" />
        ) : issue?.statusTimeline.length ? (
          <Stack component="ol" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
            {issue.statusTimeline.map((step) => (
              <Typography key={`${step.status}-${step.at}`} component="li" variant="body2">
                <strong>{step.label}</strong> · {formatChangeDate(step.at)}
              </Typography>
            ))}
          </Stack>
        ) : (
          <Typography color="text.secondary">No status recorded yet</Typography>
        )}
      </Box>
      <Box component="section" aria-label="Updates">
        <SectionHeading>{issue ? `Updates (${issue.posts.length})` : 'Updates'}</SectionHeading>
        {detail.isLoading ? (
          <Skeleton variant="rounded" height={96} aria-label="Loading updates" />
        ) : issue?.posts.length ? (
          <Stack component="ol" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {issue.posts.map((post) => (
              <Box component="li" key={post.postedAt + post.html.length} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {formatChangeDate(post.postedAt)}
                  {post.postType && POST_TYPES[post.postType] ? ` · ${POST_TYPES[post.postType]}` : ''}
                </Typography>
                <SafeHtml html={post.html} sx={{ typography: 'body2' }} />
              </Box>
            ))}
          </Stack>
        ) : (
          <Typography color="text.secondary">No updates posted</Typography>
        )}
      </Box>
      {issue?.report ? (
        <Box component="section">
          <SectionHeading>Post-incident Report</SectionHeading>
          <Button size="small" variant="outlined" href={issue.report.downloadUrl} download>
            Download the post-incident report
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            kept {formatDate(issue.report.fetchedAt)}
          </Typography>
        </Box>
      ) : null}
      {issue?.tenants.length ? (
        <Box component="section" aria-label="Tenants">
          <SectionHeading>{`Seen by ${issue.tenants.length} ${issue.tenants.length === 1 ? 'tenant' : 'tenants'}`}</SectionHeading>
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {issue.tenants.map((tenant) => (
              <Chip key={tenant.id} size="small" variant="outlined" label={`${tenant.name} · since ${formatDate(tenant.firstSeen)}`} />
            ))}
          </Stack>
        </Box>
      ) : null}
      <Box component="section">
        <SectionHeading>Related Message Center Posts and Roadmap Items</SectionHeading>
        <RelatedItems kind="mixed" items={issue?.related} isLoading={detail.isLoading} error={detail.error} onView={onOpenItem} now={now} />
      </Box>
      <Box component="section">
        <SectionHeading>Change History</SectionHeading>
        <ChangeHistory entries={history.data} isLoading={history.isLoading} error={history.error} />
      </Box>
    </Stack>
  );
}
