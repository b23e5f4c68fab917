import { Button, Stack, Typography } from '@mui/material';
import { formatCount } from '@radar/shared-ui';

export interface PaginationFooterProps {
  page: number;
  totalPages: number;
  total: number;
  /** The total is an estimate (a search with many matches): shown as "about 13,000". */
  approximate?: boolean;
  onPageChange: (page: number) => void;
}

/** An estimate to two significant digits: 13,456 → "about 13,000". */
export function aboutCount(value: number): string {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, value))) - 1);
  return `about ${formatCount(Math.round(value / unit) * unit)}`;
}

/**
 * 'Page X of N (T total items)' with Previous / Next; nothing when everything fits on one page. An estimated total
 * reads 'Page X of about N (about T total items)'.
 */
export function PaginationFooter({ page, totalPages, total, approximate = false, onPageChange }: PaginationFooterProps) {
  if (totalPages <= 1) return null;
  return (
    <Stack component="nav" aria-label="Pagination" direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', py: 2 }}>
      <Typography variant="body2" role="status">
        {approximate
          ? `Page ${page} of ${aboutCount(totalPages)} (${aboutCount(total)} total items)`
          : `Page ${page} of ${totalPages} (${formatCount(total)} total items)`}
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
