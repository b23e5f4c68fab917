import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** A labelled value in the detail grid; missing values read 'Not specified'. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: 0.4 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', overflowWrap: 'anywhere' }}>{empty ? 'Not specified' : children}</Box>
    </Box>
  );
}

export function SectionHeading({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
      {children}
    </Typography>
  );
}
