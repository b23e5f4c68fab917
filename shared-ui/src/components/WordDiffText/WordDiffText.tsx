import { Box } from '@mui/material';
import type { WordDiffPart } from '@radar/contracts';
import { VisuallyHidden } from './VisuallyHidden.js';

/**
 * The parts of a word diff as inline text. The parts are plain text from the server and render as text nodes, never
 * as HTML. Insertions are underlined, deletions struck through, each also announced ("inserted:", "deleted:") to
 * screen readers, so colour is never the only signal.
 */
export function WordDiffText({ parts }: { parts: WordDiffPart[] }) {
  return (
    <>
      {parts.map((part, index) => {
        if (part.type === 'equal') return <span key={index}>{part.text}</span>;
        const inserted = part.type === 'insert';
        return (
          <Box
            key={index}
            component={inserted ? 'ins' : 'del'}
            sx={(theme) => ({
              textDecoration: inserted ? 'underline' : 'line-through',
              textDecorationThickness: 2,
              bgcolor: theme.alpha(inserted ? (theme.vars ?? theme).palette.success.main : (theme.vars ?? theme).palette.error.main, 0.15),
              color: 'text.primary',
            })}
          >
            <VisuallyHidden>{inserted ? ' [inserted: ' : ' [deleted: '}</VisuallyHidden>
            {part.text}
            <VisuallyHidden>{inserted ? ' end inserted] ' : ' end deleted] '}</VisuallyHidden>
          </Box>
        );
      })}
    </>
  );
}
