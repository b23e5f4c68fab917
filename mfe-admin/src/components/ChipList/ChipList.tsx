import { Chip, Stack, type ChipProps } from '@mui/material';
import { TAG_DISPLAY_LIMIT } from '@radar/contracts';

export interface ChipListProps {
  /** Labels in display order. */
  labels: string[];
  /** How many chips are shown before the '+N' chip (2). */
  limit?: number;
  variant?: ChipProps['variant'];
  /** Shown when there are no labels. */
  emptyText?: string;
}

/** Service and tag chips: at most `limit`, then a '+N' chip whose tooltip names the rest. */
export function ChipList({ labels, limit = TAG_DISPLAY_LIMIT, variant = 'outlined', emptyText = '—' }: ChipListProps) {
  const unique = [...new Set(labels.map((l) => l.trim()).filter(Boolean))];
  if (unique.length === 0) return <span>{emptyText}</span>;
  const hidden = unique.slice(limit);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {unique.slice(0, limit).map((label) => (
        <Chip key={label} size="small" variant={variant} label={label} />
      ))}
      {hidden.length > 0 ? (
        <Chip size="small" label={`+${hidden.length}`} title={hidden.join(', ')} aria-label={`${hidden.length} more: ${hidden.join(', ')}`} />
      ) : null}
    </Stack>
  );
}
