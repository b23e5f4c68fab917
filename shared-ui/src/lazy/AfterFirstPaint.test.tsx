import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
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
    // Outside act(), as a browser runs it.
    const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = scope.IS_REACT_ACT_ENVIRONMENT;
    scope.IS_REACT_ACT_ENVIRONMENT = false;
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    try {
      flushSync(() => root.render(<Page />));
      expect(host.querySelector('h1')?.textContent).toBe('Above the fold');
      expect(host.textContent).not.toContain('Below the fold');
      await waitFor(() => expect(host.textContent).toContain('Below the fold'));
    } finally {
      flushSync(() => root.unmount());
      host.remove();
      scope.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });

  it('renders everything at once under act() (component tests)', () => {
    render(<Page />);
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });
});
