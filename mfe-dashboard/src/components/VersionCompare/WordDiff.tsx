import { Box, Typography } from '@mui/material';
import type { WordDiff as WordDiffData } from '@radar/contracts';
import { WordDiffText } from '@radar/shared-ui';

/**
 * The word-level diff of a description or body. The parts are plain text from the server (the HTML was sanitised and
 * reduced to text there) and are rendered as text nodes, never as HTML. Insertions are underlined, deletions struck
 * through, each also announced ("inserted:", "deleted:") to screen readers, so colour is never the only signal.
 */
export function WordDiff({ diff, label }: { diff: WordDiffData; label: string }) {
  return (
    <Box component="section" aria-label={`${label}: word-level changes`}>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 0.5 }}>
        {label}: word-level changes
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0, mb: 1 }}>
        Underlined text was added; struck-through text was removed.
      </Typography>
      <Box
        data-testid="word-diff"
        sx={{
          typography: 'body2',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          p: 1.5,
          maxHeight: 420,
          overflowY: 'auto',
        }}
      >
        <WordDiffText parts={diff.parts} />
      </Box>
    </Box>
  );
}
