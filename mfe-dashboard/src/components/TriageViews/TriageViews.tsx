import { Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { TRIAGE_VIEWS, TRIAGE_VIEW_LABELS, type TriageView } from '@radar/contracts';
import { ChangeHealthChip } from '../ChangeHealth/index.js';

export interface TriageViewsProps {
  view: TriageView | undefined;
  onChange: (view: TriageView | undefined) => void;
}

/**
 * The queue views beside the filters (signed-in users): every item, or one triage queue; and the change-health score
 * of what the user may see, whose "See what is overdue" switches to the Overdue view.
 */
export function TriageViews({ view, onChange }: TriageViewsProps) {
  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={view ?? 'all'}
        aria-label="Triage view"
        onChange={(_, next: TriageView | 'all' | null) => {
          if (next !== null) onChange(next === 'all' ? undefined : next);
        }}
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="all">All items</ToggleButton>
        {TRIAGE_VIEWS.map((v) => (
          <ToggleButton key={v} value={v}>
            {TRIAGE_VIEW_LABELS[v]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <ChangeHealthChip onShowOverdue={() => onChange('overdue')} />
    </Stack>
  );
}
