import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { integrationTestView, tenantTestView, TestResult } from './TestResult.js';

describe('TestResult', () => {
  it("shows a tenant's checks by their message, green when all passed", () => {
    const view = tenantTestView({
      ok: true,
      checks: [
        { name: 'token', ok: true, message: 'Signed in to Contoso' },
        { name: 'messages', ok: true, message: 'Message Center read' },
      ],
    } as Parameters<typeof tenantTestView>[0]);
    render(<TestResult of="Contoso" result={view} />);
    const outcome = screen.getByLabelText('Connection test of Contoso');
    expect(outcome).toHaveClass('MuiAlert-colorSuccess');
    expect(outcome).toHaveTextContent('✓ Signed in to Contoso');
    expect(outcome).toHaveTextContent('✓ Message Center read');
  });

  it("shows a tracker's checks by name and detail, red when one failed", () => {
    const view = integrationTestView({
      success: false,
      message: 'One check failed',
      checks: [
        { name: 'Sign-in', ok: true, detail: 'token accepted' },
        { name: 'Project', ok: false, detail: 'OPS not found' },
      ],
    } as Parameters<typeof integrationTestView>[0]);
    render(<TestResult of="Change board" result={view} />);
    const outcome = screen.getByLabelText('Connection test of Change board');
    expect(outcome).toHaveClass('MuiAlert-colorError');
    expect(outcome).toHaveTextContent('✓ Sign-in: token accepted');
    expect(outcome).toHaveTextContent('✗ Project: OPS not found');
  });
});
