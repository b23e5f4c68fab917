import { Chip, Stack } from '@mui/material';
import type { UnifiedItem } from '@radar/contracts';
import { ItemStatusBadge } from '@radar/shared-ui';
import type { RowPresentation } from './row-presentation.js';

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
