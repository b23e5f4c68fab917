import { useId, useState, type ReactNode } from 'react';
import { Box, ButtonBase, Collapse, Typography } from '@mui/material';
import { icons } from '@radar/shared-ui';

export interface FilterSectionProps {
  title: string;
  defaultOpen?: boolean;
  children: ReactNode;
}

/** A collapsible section of the filter sidebar; the heading is the toggle. */
export function FilterSection({ title, defaultOpen = false, children }: FilterSectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const contentId = useId();
  return (
    <Box component="section" sx={{ borderBottom: 1, borderColor: 'divider', py: 1 }}>
      <Typography component="h3" variant="subtitle2" sx={{ m: 0 }}>
        <ButtonBase
          onClick={() => setOpen((v) => !v)}
          aria-expanded={open}
          aria-controls={contentId}
          sx={{ width: '100%', justifyContent: 'space-between', py: 0.5, fontWeight: 600, fontSize: 'inherit', borderRadius: 1 }}
        >
          {title}
          <icons.ChevronRightIcon fontSize="small" sx={{ transform: open ? 'rotate(90deg)' : 'none', transition: 'transform 150ms' }} />
        </ButtonBase>
      </Typography>
      <Collapse in={open} id={contentId} unmountOnExit>
        <Box sx={{ pt: 0.5 }}>{children}</Box>
      </Collapse>
    </Box>
  );
}
