import { Link as RouterLink } from 'react-router-dom';
import { Button, Card, CardActions, CardContent, Stack, Typography } from '@mui/material';
import { PREVIEW_CHARS, SOURCE_LINK_PARAMS, type FeaturedItem } from '@radar/contracts';
import { formatServices, providerIdOf } from '../../presentation/item-rules.js';
import { stripHtml, truncate } from '../../presentation/format.js';
import { ItemStatusBadge, SourceBadge } from '../ItemBadges/index.js';

/** Where 'View Details' goes: the dashboard with the item's dialog open. */
export function featuredItemLink(item: Pick<FeaturedItem, 'source' | 'itemId' | 'messageId' | 'issueId'>): string {
  return `/dashboard?${SOURCE_LINK_PARAMS[item.source]}=${encodeURIComponent(providerIdOf(item))}`;
}

export function FeaturedCard({ item }: { item: FeaturedItem }) {
  const text = stripHtml(item.description ?? item.summary);
  const products = item.source === 'roadmap' ? item.product : formatServices(item.services);
  const id = item.source === 'roadmap' ? item.itemId : item.messageId;
  return (
    <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }} component="article">
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', gap: 0.5 }}>
          <SourceBadge source={item.source} />
          {item.source === 'roadmap' && item.status ? <ItemStatusBadge status={item.status} /> : null}
        </Stack>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {item.title}
        </Typography>
        {text ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {truncate(text, PREVIEW_CHARS)}
          </Typography>
        ) : null}
        {products ? (
          <Typography variant="caption" color="text.secondary" component="p">
            {products}
          </Typography>
        ) : null}
        {id ? (
          <Typography variant="caption" color="text.secondary" component="p">
            ID: {id}
          </Typography>
        ) : null}
      </CardContent>
      <CardActions>
        <Button component={RouterLink} to={featuredItemLink(item)} size="small" aria-label={`View Details: ${item.title}`}>
          View Details
        </Button>
      </CardActions>
    </Card>
  );
}
