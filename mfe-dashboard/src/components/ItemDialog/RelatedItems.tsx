import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { PREVIEW_CHARS, type UnifiedItem } from '@radar/contracts';
import { displayTags, formatDate, formatReleaseDate, formatTimeAgo, HealthStatusBadge, ItemStatusBadge, stripHtml, truncate } from '@radar/shared-ui';

export interface RelatedItemsProps {
  /** The kind of the related items ('mixed': posts, roadmap items and issues together, each shown by its source). */
  kind: 'messages' | 'roadmap' | 'health' | 'mixed';
  items: UnifiedItem[] | undefined;
  isLoading: boolean;
  error: unknown;
  onView: (item: UnifiedItem) => void;
  now: Date;
}

const TEXT: Record<RelatedItemsProps['kind'], { failed: string; none: string; label: string }> = {
  messages: { failed: 'Failed to fetch linked messages', none: 'No related Message Center items', label: 'Related Message Center items' },
  roadmap: { failed: 'Failed to fetch linked roadmap items', none: 'No related roadmap items', label: 'Related roadmap items' },
  health: {
    failed: 'Failed to fetch related Service Health issues',
    none: 'No Service Health issues of these services in these weeks',
    label: 'Related Service Health issues',
  },
  mixed: { failed: 'Failed to fetch related items', none: 'No posts or roadmap items of this service in these weeks', label: 'Related items' },
};

/** Related Message Center items of a roadmap item, related roadmap items of a message, or the items around a Service Health issue. */
export function RelatedItems({ kind, items, isLoading, error, onView, now }: RelatedItemsProps) {
  if (isLoading) return <Skeleton variant="rounded" height={56} aria-label="Loading related items" />;
  if (error) return <Alert severity="error">{TEXT[kind].failed}</Alert>;
  if (!items || items.length === 0) {
    return <Typography color="text.secondary">{TEXT[kind].none}</Typography>;
  }
  return (
    <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={TEXT[kind].label}>
      {items.map((item) => (
        <Stack
          component="li"
          key={item.id}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {item.source === 'messages' ? (
              <MessageSummary item={item} now={now} />
            ) : item.source === 'health' ? (
              <HealthSummary item={item} />
            ) : (
              <RoadmapSummary item={item} />
            )}
          </Box>
          <Button size="small" variant="outlined" onClick={() => onView(item)} aria-label={`View ${item.title}`}>
            View
          </Button>
        </Stack>
      ))}
    </Stack>
  );
}

function MessageSummary({ item, now }: { item: UnifiedItem; now: Date }) {
  const tags = displayTags(item).all.slice(0, 2);
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {item.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {truncate(stripHtml(item.summary) || stripHtml(item.bodyContent), PREVIEW_CHARS)}
      </Typography>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          Published {formatTimeAgo(item.publishedDate ?? item.createdDate, now)}
        </Typography>
        {tags.map((tag) => (
          <Chip key={tag} size="small" variant="outlined" label={tag} />
        ))}
      </Stack>
    </>
  );
}

function HealthSummary({ item }: { item: UnifiedItem }) {
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {item.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {truncate(stripHtml(item.summary), PREVIEW_CHARS)}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
        <HealthStatusBadge status={item.status} isResolved={item.isResolved} />
        <Typography variant="caption">{item.issueId}</Typography>
        <Typography variant="caption" color="text.secondary">
          Started {formatDate(item.createdDate)}
        </Typography>
      </Stack>
    </>
  );
}

function RoadmapSummary({ item }: { item: UnifiedItem }) {
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {item.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {truncate(stripHtml(item.description), PREVIEW_CHARS) || 'No description available'}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
        <ItemStatusBadge status={item.status} />
        {item.product ? <Typography variant="caption">{item.product}</Typography> : null}
        <Typography variant="caption" color="text.secondary">
          Release: {formatReleaseDate(item.releaseDate)}
        </Typography>
      </Stack>
    </>
  );
}
