import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RadarProviders } from '../RadarProviders/index.js';
import { useAuthDialogStore } from '../../auth/auth-dialog-store.js';
import { stubFetch } from '../../test/fetch-stub.js';
import { AuthDialog } from './AuthDialog.js';

const RECOVERY = 'ABCDE-FGHIJ-KLMNO-PQRST-UVWXY-Z';

describe('the code step opened for a recovery code', () => {
  beforeEach(() => useAuthDialogStore.setState({ isOpen: false, mode: 'signin', codeFor: null }));

  it('takes the 26-character recovery code the server printed, with dashes, and signs in with it', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: null } },
      'POST /api/auth/verify-code': { body: { success: true, message: 'Successfully signed in' } },
    });
    const reload = jest.fn();
    render(
      <RadarProviders swr={{ provider: () => new Map() }} withAuthDialog={false}>
        <AuthDialog reload={reload} />
      </RadarProviders>,
    );
    act(() => useAuthDialogStore.getState().openForCode('lost@example.com'));
    expect(await screen.findByText(/Enter the recovery code printed on the server for/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: RECOVERY.slice(0, 20) } });
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: RECOVERY } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/auth/verify-code')?.body).toEqual({ email: 'lost@example.com', code: RECOVERY }));
  });
});
