import { useMemo } from 'react';
import { Box, type SxProps, type Theme } from '@mui/material';
import { sanitizeHtml } from './sanitize.js';

export interface SafeHtmlProps {
  /** Untrusted HTML; it is sanitised before it reaches the DOM. */
  html: string;
  sx?: SxProps<Theme>;
}

/** Renders provider HTML (message bodies, roadmap descriptions) after DOMPurify. */
export function SafeHtml({ html, sx }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <Box
      data-testid="safe-html"
      sx={{ overflowWrap: 'anywhere', '& img': { maxWidth: '100%' }, '& table': { borderCollapse: 'collapse' }, '& a': { color: 'primary.main' }, ...sx }}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
