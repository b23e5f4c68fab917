import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import type { SessionRecord } from '@radar/contracts';
import { SessionsCard } from './SessionsCard.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const session = (overrides: Partial<SessionRecord>): SessionRecord => ({
  id: '0123456789abcdef',
  browser: 'Firefox 132',
  os: 'Windows 10',
  network: '203.0.113.0/24',
  createdAt: '2026-02-01T08:00:00.000Z',
  lastSeenAt: '2026-02-07T11:00:00.000Z',
  expiresAt: '2026-02-14T11:00:00.000Z',
  current: true,
  ...overrides,
});

describe('SessionsCard', () => {
  it('lists the sessions with this device marked, and ends another after confirmation', async () => {
    let sessions = [session({}), session({ id: 'fedcba9876543210', browser: 'Safari 17', os: 'iOS 17.5', network: '198.51.100.0/24', current: false })];
    const { calls } = stubFetch({
      'GET /api/auth/sessions': () => ({ body: sessions }),
      'DELETE /api/auth/sessions/fedcba9876543210': () => {
        sessions = sessions.filter((s) => s.id !== 'fedcba9876543210');
        return { body: { success: true, message: 'Session ended' } };
      },
    });
    renderWithProviders(<SessionsCard />, { withAuthDialog: false });
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const firefox = within(list).getByText('Firefox 132 on Windows 10').closest('li')!;
    expect(within(firefox).getByText('This device')).toBeInTheDocument();
    expect(within(list).getByText(/from 198\.51\.100\.0\/24 · signed in/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'End session Safari 17 on iOS 17.5' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(within(dialog).getByText('Safari 17 on iOS 17.5 will be signed out at once.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    expect(await screen.findByText('Firefox 132 on Windows 10')).toBeInTheDocument();
    expect(screen.queryByText('Safari 17 on iOS 17.5')).not.toBeInTheDocument();
  });
});
