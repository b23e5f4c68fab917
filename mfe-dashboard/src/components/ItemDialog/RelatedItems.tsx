import { Alert, Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { PREVIEW_CHARS, type UnifiedItem } from '@radar/contracts';
import { displayTags, formatReleaseDate, formatTimeAgo, ItemStatusBadge, stripHtml, truncate } from '@radar/shared-ui';

export interface RelatedItemsProps {
  /** The kind of the related items. */
  kind: 'messages' | 'roadmap';
  items: UnifiedItem[] | undefined;
  isLoading: boolean;
  error: unknown;
  onView: (item: UnifiedItem) => void;
  now: Date;
}

/** Related Message Center items of a roadmap item, or related roadmap items of a message. */
export function RelatedItems({ kind, items, isLoading, error, onView, now }: RelatedItemsProps) {
  if (isLoading) return <Skeleton variant="rounded" height={56} aria-label="Loading related items" />;
  if (error) return <Alert severity="error">{kind === 'messages' ? 'Failed to fetch linked messages' : 'Failed to fetch linked roadmap items'}</Alert>;
  if (!items || items.length === 0) {
    return <Typography color="text.secondary">{kind === 'messages' ? 'No related Message Center items' : 'No related roadmap items'}</Typography>;
  }
  return (
    <Stack
      spacing={1}
      component="ul"
      sx={{ listStyle: 'none', p: 0, m: 0 }}
      aria-label={kind === 'messages' ? 'Related Message Center items' : 'Related roadmap items'}
    >
      {items.map((item) => (
        <Stack
          component="li"
          key={item.id}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>{kind === 'messages' ? <MessageSummary item={item} now={now} /> : <RoadmapSummary item={item} />}</Box>
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
