import { Button, Stack, Typography } from '@mui/material';
import { formatCount } from '@radar/shared-ui';

export interface PaginationFooterProps {
  page: number;
  totalPages: number;
  total: number;
  onPageChange: (page: number) => void;
}

/** 'Page X of N (T total items)' with Previous / Next; nothing when everything fits on one page. */
export function PaginationFooter({ page, totalPages, total, onPageChange }: PaginationFooterProps) {
  if (totalPages <= 1) return null;
  return (
    <Stack component="nav" aria-label="Pagination" direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', py: 2 }}>
      <Typography variant="body2" role="status">
        Page {page} of {totalPages} ({formatCount(total)} total items)
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" size="small" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          Previous
        </Button>
        <Button variant="outlined" size="small" disabled={page >= totalPages} onClick={() => onPageChange(page + 1)}>
          Next
        </Button>
      </Stack>
    </Stack>
  );
}
