import type { ReactNode } from 'react';
import { Box } from '@mui/material';

/** Text for screen readers only (the usual clip pattern): it says what colour, strike-through or a symbol shows. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <Box
      component="span"
      sx={{ position: 'absolute', width: '1px', height: '1px', p: 0, m: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 }}
    >
      {children}
    </Box>
  );
}
