import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { TestResultView } from './TestResultView.js';

describe('TestResultView', () => {
  it("shows a tenant's checks by their message, green when the test passed", () => {
    render(
      <TestResultView
        of="Contoso"
        result={{
          ok: true,
          message: 'Connected: every check passed',
          checks: [
            { name: 'token', ok: true, message: 'Signed in to Contoso' },
            { name: 'messages', ok: true, message: 'Message Center read' },
          ],
        }}
      />,
    );
    const outcome = screen.getByLabelText('Connection test of Contoso');
    expect(outcome).toHaveClass('MuiAlert-colorSuccess');
    expect(outcome).toHaveTextContent('✓ Signed in to Contoso');
    expect(outcome).toHaveTextContent('✓ Message Center read');
  });

  it("shows a tracker's checks by name and message, red when one failed", () => {
    render(
      <TestResultView
        of="Change board"
        namedChecks
        result={{
          ok: false,
          message: 'Not ready: Project',
          checks: [
            { name: 'Sign-in', ok: true, message: 'token accepted' },
            { name: 'Project', ok: false, message: 'OPS not found' },
          ],
        }}
      />,
    );
    const outcome = screen.getByLabelText('Connection test of Change board');
    expect(outcome).toHaveClass('MuiAlert-colorError');
    expect(outcome).toHaveTextContent('✓ Sign-in: token accepted');
    expect(outcome).toHaveTextContent('✗ Project: OPS not found');
  });
});
