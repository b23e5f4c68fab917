import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { TRIAGE_VIEWS, TRIAGE_VIEW_LABELS, type TriageView } from '@radar/contracts';

export interface TriageViewsProps {
  view: TriageView | undefined;
  onChange: (view: TriageView | undefined) => void;
}

/** The queue views beside the filters (signed-in users): every item, or one triage queue. */
export function TriageViews({ view, onChange }: TriageViewsProps) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={view ?? 'all'}
      aria-label="Triage view"
      onChange={(_, next: TriageView | 'all' | null) => {
        if (next !== null) onChange(next === 'all' ? undefined : next);
      }}
      sx={{ flexWrap: 'wrap', mb: 2 }}
    >
      <ToggleButton value="all">All items</ToggleButton>
      {TRIAGE_VIEWS.map((v) => (
        <ToggleButton key={v} value={v}>
          {TRIAGE_VIEW_LABELS[v]}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
