import { Chip, Stack, type ChipProps } from '@mui/material';
import { TAG_DISPLAY_LIMIT } from '../../presentation/ui-constants.js';

export interface ChipListProps {
  /** The values in display order; blanks and repeats are dropped. */
  values: readonly string[];
  /** What the values are, plural ('services', 'tags', 'permissions'): the '+N' chip's accessible name says it. */
  noun: string;
  /** The singular, when it is not `noun` without its final 's'. */
  one?: string;
  /** How many chips are shown before the '+N' chip (2). */
  limit?: number;
  variant?: ChipProps['variant'];
  /** Shown when there are no values (nothing by default). */
  emptyText?: string;
}

/**
 * Service, tag and permission chips everywhere in the product: at most `limit`, then a '+N' chip whose tooltip lists
 * the rest and whose accessible name begins with what it shows ("+2 more tags: Admin impact, Retirement", "+1 more tag: Retirement").
 */
export function ChipList({ values, noun, one = noun.replace(/s$/, ''), limit = TAG_DISPLAY_LIMIT, variant = 'outlined', emptyText }: ChipListProps) {
  const unique = [...new Set(values.map((v) => v.trim()).filter(Boolean))];
  if (unique.length === 0) return emptyText ? <span>{emptyText}</span> : null;
  const hidden = unique.slice(limit);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {unique.slice(0, limit).map((value) => (
        <Chip key={value} size="small" variant={variant} label={value} />
      ))}
      {hidden.length > 0 ? (
        <Chip
          size="small"
          label={`+${hidden.length}`}
          title={hidden.join(', ')}
          aria-label={`+${hidden.length} more ${hidden.length === 1 ? one : noun}: ${hidden.join(', ')}`}
        />
      ) : null}
    </Stack>
  );
}
