import { Chip, Tooltip, styled } from '@mui/material';
import type { ListRelevance } from '@radar/contracts';
import { RELEVANCE_LABELS } from '../../state/relevance-levels.js';

// shared-ui's VisuallyHidden, as a style defined once: up to 50 rows render it (see ItemRow).
const ForScreenReaders = styled('span')({
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
});

/**
 * "Relevance: High. 1,240 people used Teams in the last 30 days, 82 % of licensed users": what the chip says to a
 * screen reader, with the tenant when the reader sees several ("Relevance: High for Contoso. …").
 */
export function relevanceSentence(relevance: Pick<ListRelevance, 'level' | 'reason'>, tenantName?: string | null): string {
  return `Relevance: ${RELEVANCE_LABELS[relevance.level]}${tenantName ? ` for ${tenantName}` : ''}. ${relevance.reason}`;
}

export interface RelevanceChipProps {
  relevance: ListRelevance;
  /** The tenant the level is of, when the reader sees more than one (else null: it can only be theirs). */
  tenantName?: string | null;
}

/**
 * A list row's relevance: High (filled), Medium (outlined, coloured) or Low (outlined, plain), its words saying the
 * level so colour is never the only signal; the reason in its tooltip and in its text for screen readers. Unknown
 * shows nothing: most admin-facing items are Unknown, and a chip saying so on every such row would be noise (the item
 * dialog says why). MUI's Chip and Tooltip are on the list's first screen already (badges, timing).
 */
export function RelevanceChip({ relevance, tenantName = null }: RelevanceChipProps) {
  const { level, reason } = relevance;
  if (level === 'unknown') return null;
  const label = RELEVANCE_LABELS[level];
  return (
    <Tooltip title={tenantName ? `${tenantName}: ${reason}` : reason} describeChild>
      <Chip
        size="small"
        data-relevance={level}
        variant={level === 'high' ? 'filled' : 'outlined'}
        color={level === 'low' ? 'default' : 'primary'}
        label={
          <>
            <span aria-hidden="true">{`${label} relevance`}</span>
            <ForScreenReaders>{relevanceSentence(relevance, tenantName)}</ForScreenReaders>
          </>
        }
      />
    </Tooltip>
  );
}
