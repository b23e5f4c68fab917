import { memo } from 'react';
import { Tooltip, Typography, styled } from '@mui/material';
import type { ListRelevance, UnifiedItem } from '@radar/contracts';
import { SourceBadge, useDisplayTimeZone } from '@radar/shared-ui';
import { RelevanceChip } from '../RelevanceChip/index.js';
import { presentRow } from './row-presentation.js';
import { RowBadges, RowTags } from './RowBits.js';
import { Cell, Row, SelectBox } from './RowCells.js';
import type { TriageCells } from './triage-cells.js';

// Styles defined once, not as per-row `sx` objects: a page renders 50 rows of these, and MUI resolves every `sx`
// object against the theme on every render (about a third of the list's render time). The row and its cells:
// RowCells.tsx.
const TitleLine = styled('div')(({ theme }) => ({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.spacing(1) }));
// A plain button styled as MUI's Link-as-button was (its class names were ~100 bytes a row in the server's HTML).
const TitleButton = styled('button')(({ theme }) => ({
  margin: 0,
  padding: 0,
  border: 0,
  borderRadius: 0,
  backgroundColor: 'transparent',
  font: 'inherit',
  letterSpacing: 'inherit',
  textAlign: 'left',
  fontWeight: 600,
  color: (theme.vars ?? theme).palette.text.primary,
  cursor: 'pointer',
  verticalAlign: 'middle',
  '&:hover': { textDecoration: 'underline' },
}));
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
    <Row data-item-id={item.id} data-tint={row.tint ?? undefined} data-selected={selected || undefined} onClick={() => onOpen(item)}>
      {selected !== undefined && onSelect ? (
        <Cell data-col="select" onClick={(event) => event.stopPropagation()}>
          <SelectBox checked={selected} onChange={(e) => onSelect([item.id], e.target.checked)} aria-label={`Select ${row.providerId}`} />
        </Cell>
      ) : null}
      <Cell data-col="id">{row.providerId}</Cell>
      <Cell data-col="title">
        <TitleLine>
          <TitleButton
            type="button"
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
      </Cell>
      {triage ? (
        <>
          <Cell data-col="state">{triage.state}</Cell>
          <Cell data-col="owner">{triage.owner}</Cell>
          <Cell data-col="due" data-overdue={triage.overdue || undefined}>
            {triage.due}
            {triage.overdue ? ' (overdue)' : ''}
          </Cell>
        </>
      ) : null}
      <Cell data-col="product">{row.productText}</Cell>
      <Cell data-col="source">
        <SourceBadge source={item.source} />
        {received ? (
          <Received variant="caption" color="text.secondary">
            {received}
          </Received>
        ) : null}
      </Cell>
      <Cell data-col="release">{row.releaseText}</Cell>
      <Cell data-col="timing">{timing}</Cell>
      <Cell data-col="modified">{row.lastModifiedText}</Cell>
      <Cell data-col="tags">
        <RowTags item={item} row={row} />
      </Cell>
    </Row>
  );
});
