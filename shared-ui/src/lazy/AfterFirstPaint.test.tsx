import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import { withFirstCommit } from '../test/first-commit.js';
import { AfterFirstPaint } from './AfterFirstPaint.js';

function Page() {
  return (
    <main>
      <h1>Above the fold</h1>
      <AfterFirstPaint>
        <p>Below the fold</p>
      </AfterFirstPaint>
    </main>
  );
}

describe('AfterFirstPaint', () => {
  it('leaves its children out of the first commit and renders them in the transition right after it', async () => {
    await withFirstCommit(<Page />, async (container) => {
      expect(container.querySelector('h1')?.textContent).toBe('Above the fold');
      expect(container.textContent).not.toContain('Below the fold');
      await waitFor(() => expect(container.textContent).toContain('Below the fold'));
    });
  });

  it('renders everything at once under act() (component tests)', () => {
    render(<Page />);
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });
});
