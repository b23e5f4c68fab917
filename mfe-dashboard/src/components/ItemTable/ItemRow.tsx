import { memo } from 'react';
import { Checkbox, Link, TableCell, TableRow, Tooltip, Typography, styled } from '@mui/material';
import type { ListRelevance, UnifiedItem } from '@radar/contracts';
import { SourceBadge, useDisplayTimeZone } from '@radar/shared-ui';
import { RelevanceChip } from '../RelevanceChip/index.js';
import { presentRow } from './row-presentation.js';
import { RowBadges, RowTags } from './RowBits.js';
import type { TriageCells } from './triage-cells.js';

// Styles defined once, not as per-row `sx` objects: a page renders 50 rows of these, and MUI resolves every `sx`
// object against the theme on every render (about a third of the list's render time).
const Row = styled(TableRow)(({ theme }) => ({
  cursor: 'pointer',
  verticalAlign: 'top',
  // Theme variables, not values: a server-rendered row is right in a dark page before it hydrates.
  '&[data-tint="new"]': { backgroundColor: theme.alpha((theme.vars ?? theme).palette.success.main, 0.08) },
  '&[data-tint="updated"]': { backgroundColor: theme.alpha((theme.vars ?? theme).palette.info.main, 0.08) },
}));
const IdCell = styled(TableCell)({ fontFamily: 'monospace', whiteSpace: 'nowrap' });
const TitleCell = styled(TableCell)({ minWidth: 280 });
const NoWrapCell = styled(TableCell)({ whiteSpace: 'nowrap' });
const TitleLine = styled('div')(({ theme }) => ({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.spacing(1) }));
const TitleButton = styled(Link)(({ theme }) => ({ textAlign: 'left', fontWeight: 600, color: (theme.vars ?? theme).palette.text.primary })) as typeof Link;
const Received = styled(Typography)(({ theme }) => ({ display: 'block', marginTop: theme.spacing(0.5), whiteSpace: 'nowrap' }));
const Preview = styled(Typography)(({ theme }) => ({ marginTop: theme.spacing(0.5) }));
// A folded column's content under the title; shown only while its column is folded (ItemTable's container queries).
const Fold = styled('div')(({ theme }) => ({
  display: 'none',
  marginTop: theme.spacing(0.5),
  ...theme.typography.body2,
  color: (theme.vars ?? theme).palette.text.secondary,
}));

export interface ItemRowProps {
  item: UnifiedItem;
  now: Date;
  onOpen: (item: UnifiedItem) => void;
  /** "Received by 3 of 5 tenants", shown under the source; null when there is nothing to say. */
  received?: string | null;
  /** The State, Owner and Due cells (signed-in users); absent: the table has no triage columns. */
  triage?: TriageCells;
  /** Signed-in users: the item's relevance (the highest among their tenants), shown by the title; absent: none. */
  relevance?: ListRelevance | null;
  /** The tenant `relevance` is of, when the reader sees several tenants. */
  relevanceTenant?: string | null;
  /** Whether the row is chosen for a bulk change; absent: the table has no selection column. */
  selected?: boolean;
  onSelect?: (itemIds: string[], selected: boolean) => void;
}

/** One list row; opens the item dialog on click. */
export const ItemRow = memo(function ItemRow({
  item,
  now,
  onOpen,
  received = null,
  triage,
  relevance = null,
  relevanceTenant = null,
  selected,
  onSelect,
}: ItemRowProps) {
  const row = presentRow(item, now, useDisplayTimeZone());
  const timing = row.timingDetail ? (
    <Tooltip title={row.timingDetail}>
      <span>{row.timingText}</span>
    </Tooltip>
  ) : (
    row.timingText
  );
  return (
    <Row hover data-item-id={item.id} data-tint={row.tint ?? undefined} selected={selected} onClick={() => onOpen(item)}>
      {selected !== undefined && onSelect ? (
        <TableCell padding="checkbox" data-col="select" onClick={(event) => event.stopPropagation()}>
          <Checkbox
            size="small"
            checked={selected}
            onChange={(e) => onSelect([item.id], e.target.checked)}
            slotProps={{ input: { 'aria-label': `Select ${row.providerId}` } }}
          />
        </TableCell>
      ) : null}
      <IdCell data-col="id">{row.providerId}</IdCell>
      <TitleCell data-col="title">
        <TitleLine>
          <TitleButton
            component="button"
            type="button"
            underline="hover"
            onClick={(event) => {
              event.stopPropagation();
              onOpen(item);
            }}
          >
            {item.title}
          </TitleButton>
          <RowBadges item={item} row={row} />
          {relevance ? <RelevanceChip relevance={relevance} tenantName={relevanceTenant} /> : null}
        </TitleLine>
        {row.preview ? (
          <Preview variant="body2" color="text.secondary">
            {row.preview}
          </Preview>
        ) : null}
        {triage ? <Fold data-fold="owner">Owner: {triage.owner}</Fold> : null}
        {row.productText ? <Fold data-fold="product">{row.productText}</Fold> : null}
        {triage && row.releaseText !== '—' ? <Fold data-fold="release">Release date: {row.releaseText}</Fold> : null}
        {row.timingText !== '—' ? (
          <Fold data-fold="timing" title={row.timingDetail || undefined}>
            Timing of change: {row.timingText}
          </Fold>
        ) : null}
        <Fold data-fold="modified">Last modified: {row.lastModifiedText}</Fold>
        <Fold data-fold="tags">
          <RowTags item={item} row={row} />
        </Fold>
      </TitleCell>
      {triage ? (
        <>
          <NoWrapCell data-col="state">{triage.state}</NoWrapCell>
          <TableCell data-col="owner">{triage.owner}</TableCell>
          <NoWrapCell data-col="due" data-overdue={triage.overdue || undefined} sx={triage.overdue ? { color: 'error.main', fontWeight: 600 } : undefined}>
            {triage.due}
            {triage.overdue ? ' (overdue)' : ''}
          </NoWrapCell>
        </>
      ) : null}
      <TableCell data-col="product">{row.productText}</TableCell>
      <TableCell data-col="source">
        <SourceBadge source={item.source} />
        {received ? (
          <Received variant="caption" color="text.secondary">
            {received}
          </Received>
        ) : null}
      </TableCell>
      <NoWrapCell data-col="release">{row.releaseText}</NoWrapCell>
      <TableCell data-col="timing">{timing}</TableCell>
      <NoWrapCell data-col="modified">{row.lastModifiedText}</NoWrapCell>
      <TableCell data-col="tags">
        <RowTags item={item} row={row} />
      </TableCell>
    </Row>
  );
});
