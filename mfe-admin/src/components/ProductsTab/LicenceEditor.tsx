import { useState } from 'react';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import type { ProductMapping } from '@radar/contracts';

export interface LicenceEditorProps {
  mapping: ProductMapping;
  /** The admin's plans, or null to let the licence table decide again. */
  onSave: (licencePlans: string[] | null) => void;
}

const SOURCE_TEXT: Record<ProductMapping['licence']['source'], string> = {
  admin: 'Set here',
  rule: 'By the licence table',
  always: 'Every tenant has it',
  unknown: 'Unknown: no plan is known to license it',
};

/** The service plans that license a product: shown with where they come from, set here (comma separated) or reset. */
export function LicenceEditor({ mapping, onSave }: LicenceEditorProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const { licence } = mapping;
  if (draft !== null) {
    const plans = draft
      .split(/[\s,]+/)
      .map((p) => p.trim())
      .filter(Boolean);
    return (
      <Stack spacing={1} sx={{ minWidth: 220 }}>
        <TextField
          size="small"
          label={`Service plans licensing ${mapping.sourceProduct}`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          helperText="Graph service plan names, comma separated; a trailing * for a prefix"
        />
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="contained"
            disabled={plans.length === 0}
            onClick={() => {
              onSave(plans);
              setDraft(null);
            }}
          >
            Save
          </Button>
          <Button size="small" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    );
  }
  return (
    <Box sx={{ maxWidth: 280 }}>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {licence.plans.length ? licence.plans.join(', ') : '—'}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {SOURCE_TEXT[licence.source]}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button size="small" onClick={() => setDraft(licence.plans.join(', '))} aria-label={`Edit the licence plans of ${mapping.sourceProduct}`}>
          Edit
        </Button>
        {licence.source === 'admin' ? (
          <Button size="small" onClick={() => onSave(null)} aria-label={`Use the licence table for ${mapping.sourceProduct}`}>
            Use the licence table
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}
