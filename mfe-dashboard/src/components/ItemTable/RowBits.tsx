import { Chip, styled } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { ChipList, HealthStatusBadge, ItemStatusBadge, VisuallyHidden } from '@radar/shared-ui';
import type { RowPresentation } from './row-presentation.js';

// Static styles (not Stack's per-render spacing or `sx`): 50 rows render these on every page.
const BadgeLine = styled('span')(({ theme }) => ({ display: 'inline-flex', flexWrap: 'wrap', gap: theme.spacing(0.5) }));

/**
 * Featured / New / Updated badges, 'Removed' / 'Expired' with the date, and how often the release date moved: text
 * labels, so colour is never the only signal.
 */
export function RowBadges({ item, row }: { item: UnifiedItem; row: RowPresentation }) {
  if (!item.isFeatured && !row.isNew && !row.isUpdated && !row.removal && row.dateMoves === 0) return null;
  return (
    <BadgeLine>
      {row.removalText ? <Chip size="small" color="default" variant="outlined" label={row.removalText} /> : null}
      {item.isFeatured ? <Chip size="small" color="warning" label="Featured" /> : null}
      {row.isNew ? <Chip size="small" color="success" label="New" /> : null}
      {row.isUpdated ? <Chip size="small" color="info" label="Updated" /> : null}
      {row.dateMoves > 0 ? (
        <Chip
          size="small"
          variant="outlined"
          color="secondary"
          label={
            <>
              <span aria-hidden="true">{`Date moved ${row.dateMoves}×`}</span>
              <VisuallyHidden>{`Release date moved ${row.dateMoves} ${row.dateMoves === 1 ? 'time' : 'times'}`}</VisuallyHidden>
            </>
          }
        />
      ) : null}
    </BadgeLine>
  );
}

/** Status badge for roadmap rows and Service Health issues; tags (2 + '+N') for messages. */
export function RowTags({ item, row }: { item: UnifiedItem; row: RowPresentation }) {
  if (item.source === 'health') return <HealthStatusBadge status={item.status} isResolved={item.isResolved} />;
  if (!row.tags) return <ItemStatusBadge status={item.status} />;
  return <ChipList values={row.tags} noun="tags" />;
}
