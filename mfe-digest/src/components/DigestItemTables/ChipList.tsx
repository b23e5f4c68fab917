import { Chip, Stack } from '@mui/material';
import { TAG_DISPLAY_LIMIT } from '@radar/contracts';

export interface ChipListProps {
  /** Every value, in display order. */
  values: string[];
  /** What the values are ('services', 'tags'), for the '+N' chip's accessible name. */
  noun: string;
  limit?: number;
}

/** At most `limit` chips, then a '+N' chip whose name and tooltip list the rest (2 plus '+N'). */
export function ChipList({ values, noun, limit = TAG_DISPLAY_LIMIT }: ChipListProps) {
  if (values.length === 0) return null;
  const hidden = values.slice(limit);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {values.slice(0, limit).map((value) => (
        <Chip key={value} size="small" variant="outlined" label={value} />
      ))}
      {hidden.length > 0 ? <Chip size="small" label={`+${hidden.length}`} title={hidden.join(', ')} aria-label={`More ${noun}: ${hidden.join(', ')}`} /> : null}
    </Stack>
  );
}
