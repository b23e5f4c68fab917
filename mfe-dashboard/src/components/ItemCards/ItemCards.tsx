import { Box, Card, CardActionArea, CardContent, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { type ListRelevance, type ListTriage, type UnifiedItem } from '@radar/contracts';
import { SKELETON_ROWS, SourceBadge, useDisplayTimeZone } from '@radar/shared-ui';
import { presentRow, rowTint, RowBadges, RowTags } from '../ItemTable/index.js';
import { triageCells } from '../ItemTable/triage-cells.js';
import { RelevanceChip } from '../RelevanceChip/index.js';

export interface ItemCardsProps {
  items: UnifiedItem[];
  isLoading: boolean;
  onOpen: (item: UnifiedItem) => void;
  now: Date;
  /** "Received by 3 of 5 tenants" of an item, or null. */
  receivedText?: (item: UnifiedItem) => string | null;
  /** Signed-in users: each item's triage (the list answer's `triage`), shown as one line on its card. */
  triage?: Record<string, ListTriage[]>;
  /** Signed-in users: each item's relevance (the list answer's `relevance`), a chip among its badges. */
  relevance?: Record<string, ListRelevance>;
  /** The name of the tenant a relevance is of, when the reader sees several tenants (else null). */
  relevanceTenant?: (tenantId: number) => string | null;
}

/** Mobile list of items: one card per item with the same presentation rules as the table. */
export function ItemCards({ items, isLoading, onOpen, now, receivedText, triage, relevance, relevanceTenant }: ItemCardsProps) {
  const theme = useTheme();
  const timeZone = useDisplayTimeZone();
  if (isLoading) {
    return (
      <Stack spacing={1.5} aria-busy>
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          <Skeleton key={index} variant="rounded" height={120} data-testid="skeleton-row" />
        ))}
      </Stack>
    );
  }
  if (items.length === 0) {
    return (
      <Box sx={{ py: 6, textAlign: 'center' }}>
        <Typography color="text.secondary">No items found matching your current filters.</Typography>
      </Box>
    );
  }
  return (
    <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Items">
      {items.map((item) => {
        const row = presentRow(item, now, timeZone);
        const received = receivedText?.(item) ?? null;
        const cells = triage ? triageCells(triage[item.id], now.toISOString().slice(0, 10)) : null;
        const itemRelevance = relevance?.[item.id];
        return (
          <Card
            component="li"
            key={item.id}
            variant="outlined"
            data-item-id={item.id}
            data-tint={row.tint ?? undefined}
            sx={{ bgcolor: rowTint(theme, row.tint) }}
          >
            <CardActionArea onClick={() => onOpen(item)}>
              <CardContent>
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                  <SourceBadge source={item.source} />
                  <Typography variant="caption" sx={{ fontFamily: 'monospace' }}>
                    {row.providerId}
                  </Typography>
                  <RowBadges item={item} row={row} />
                  {itemRelevance ? <RelevanceChip relevance={itemRelevance} tenantName={relevanceTenant?.(itemRelevance.tenantId) ?? null} /> : null}
                  {received ? (
                    <Typography variant="caption" color="text.secondary">
                      {received}
                    </Typography>
                  ) : null}
                </Stack>
                <Typography sx={{ fontWeight: 600 }}>{item.title}</Typography>
                {cells ? (
                  <Typography
                    variant="body2"
                    data-triage
                    sx={{ mt: 0.5, color: cells.overdue ? 'error.main' : 'text.secondary', fontWeight: cells.overdue ? 600 : undefined }}
                  >
                    {cells.state} · {cells.owner} · Due {cells.due}
                    {cells.overdue ? ' (overdue)' : ''}
                  </Typography>
                ) : null}
                {row.preview ? (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {row.preview}
                  </Typography>
                ) : null}
                <Typography variant="body2" sx={{ mt: 1 }}>
                  {row.productText}
                </Typography>
                <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="caption">Release: {row.releaseText}</Typography>
                  {item.source === 'messages' && row.timingText !== '—' ? <Typography variant="caption">Rollout: {row.timingText}</Typography> : null}
                  <Typography variant="caption">Modified: {row.lastModifiedText}</Typography>
                  <RowTags item={item} row={row} />
                </Stack>
              </CardContent>
            </CardActionArea>
          </Card>
        );
      })}
    </Stack>
  );
}
