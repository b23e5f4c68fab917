import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { VisuallyHidden } from './VisuallyHidden.js';

describe('VisuallyHidden', () => {
  it('is read by screen readers but takes one pixel, however long its text', () => {
    render(<VisuallyHidden>{' [inserted: a long announcement that must not widen its line '}</VisuallyHidden>);
    const style = getComputedStyle(screen.getByText(/inserted/));
    // MUI reads a bare 1 as 100%: the size must be given in pixels.
    expect([style.position, style.width, style.height, style.overflow]).toEqual(['absolute', '1px', '1px', 'hidden']);
  });
});
