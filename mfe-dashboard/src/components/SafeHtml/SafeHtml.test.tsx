import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { SafeHtml } from './SafeHtml.js';
import { sanitizeHtml } from './sanitize.js';

describe('SafeHtml', () => {
  it('removes scripts, event handlers and javascript: URLs', () => {
    const dirty =
      '<p onclick="alert(1)">Hi<script>alert(2)</script></p><img src="x" onerror="alert(3)"><a href="javascript:alert(4)">bad</a><iframe src="https://evil"></iframe>';
    const clean = sanitizeHtml(dirty);
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
    expect(clean).toContain('Hi');
  });

  it('opens links in a new tab with rel=noopener', () => {
    const { container } = render(<SafeHtml html={'<p>See <a href="https://learn.microsoft.com/x">docs</a></p>'} />);
    const link = container.querySelector('a')!;
    expect(link).toHaveAttribute('href', 'https://learn.microsoft.com/x');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });
});
