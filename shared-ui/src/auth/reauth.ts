import { useCallback } from 'react';
import { routes, type WebauthnCredential } from '@radar/contracts';
import { ApiError } from '../api/api-client.js';
import { callEndpoint } from '../api/endpoint-client.js';
import { useDialogs } from '../components/Dialogs/index.js';
import { passkeyCancelled } from './passkeys.js';

/** The error name of an action that wants a recent passkey check (an admin's guarded changes). */
export const REAUTHENTICATION_REQUIRED = 'ReauthenticationRequired';

/** Whether the server refused the action until the user confirms with their passkey. */
export function reauthenticationRequired(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 403) return false;
  try {
    return (JSON.parse(error.bodyText) as { error?: { name?: string } }).error?.name === REAUTHENTICATION_REQUIRED;
  } catch {
    return false;
  }
}

/**
 * Confirms it is the signed-in user with one of their passkeys (the browser's prompt, user verification required):
 * the server then gives the session a new cookie that records the passkey proved now.
 */
export async function confirmWithPasskey(): Promise<void> {
  const lib = await import('@simplewebauthn/browser');
  const optionsJSON = await callEndpoint(routes.passkeys.reauthOptions);
  const credential = await lib.startAuthentication({ optionsJSON: optionsJSON as unknown as Parameters<typeof lib.startAuthentication>[0]['optionsJSON'] });
  await callEndpoint(routes.passkeys.reauth, { body: { credential: credential as unknown as WebauthnCredential } });
}

export const PASSKEY_CONFIRMATION = {
  title: 'Confirm with your passkey',
  okText: 'Use passkey',
};

/** The user declined to confirm with their passkey: the action was not done, nothing else to report. */
export class ConfirmationDeclinedError extends Error {
  override readonly name = 'ConfirmationDeclinedError';
  constructor() {
    super('The passkey confirmation was declined');
  }
}

/**
 * The person declined the passkey confirmation or dismissed the browser's prompt: the action was not done, and there
 * is nothing to report.
 */
export function confirmationDeclined(error: unknown): boolean {
  return error instanceof ConfirmationDeclinedError || passkeyCancelled(error);
}

/**
 * `run(action)` runs an action that may want a recent passkey check; when the server asks for one, it says why (the
 * server's message) in a dialog whose "Use passkey" opens the browser's passkey prompt, then runs the action once
 * more. Declining rejects with ConfirmationDeclinedError; a failed prompt or check rejects with its error.
 */
export function usePasskeyConfirmation() {
  const dialogs = useDialogs();
  return useCallback(
    async <T>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (err) {
        if (!reauthenticationRequired(err)) throw err;
        const message = (err as ApiError).serverMessage ?? 'Confirm with your passkey to continue.';
        let failure: unknown;
        const confirmed = await dialogs.confirm(message, {
          ...PASSKEY_CONFIRMATION,
          severity: 'primary',
          action: () => confirmWithPasskey().catch((e: unknown) => (failure = e ?? new Error('The passkey check failed'))),
        });
        if (!confirmed) throw new ConfirmationDeclinedError();
        if (failure) throw failure;
        return action();
      }
    },
    [dialogs],
  );
}
