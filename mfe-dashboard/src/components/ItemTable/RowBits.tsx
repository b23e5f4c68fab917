import { Chip, Stack } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { formatDate, ItemStatusBadge } from '@radar/shared-ui';
import { VisuallyHidden } from '../VisuallyHidden/index.js';
import type { RowPresentation } from './row-presentation.js';

/**
 * Featured / New / Updated badges, 'Removed' / 'Expired' with the date, and how often the release date moved: text
 * labels, so colour is never the only signal.
 */
export function RowBadges({ item, row }: { item: UnifiedItem; row: RowPresentation }) {
  if (!item.isFeatured && !row.isNew && !row.isUpdated && !row.removal && row.dateMoves === 0) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap component="span" sx={{ flexWrap: 'wrap' }}>
      {row.removal ? <Chip size="small" color="default" variant="outlined" label={`${row.removal.label} ${formatDate(row.removal.date)}`} /> : null}
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
    </Stack>
  );
}

/** Status badge for roadmap rows; tags (2 + '+N') for messages. */
export function RowTags({ item, row }: { item: UnifiedItem; row: RowPresentation }) {
  if (!row.tags) return <ItemStatusBadge status={item.status} />;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {row.tags.visible.map((tag) => (
        <Chip key={tag} size="small" variant="outlined" label={tag} />
      ))}
      {row.tags.hiddenCount > 0 ? <Chip size="small" label={`+${row.tags.hiddenCount}`} title={row.tags.all.join(', ')} /> : null}
    </Stack>
  );
}
