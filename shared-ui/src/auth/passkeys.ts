import { routes, type Passkey, type WebauthnCredential } from '@radar/contracts';
import { callEndpoint } from '../api/endpoint-client.js';

/**
 * Passkeys in the browser, through @simplewebauthn/browser (loaded only when a passkey is used, so the first screen
 * does not carry it). The server makes every ceremony's options and verifies the answers.
 */
const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all, and whether it offers them in the e-mail field's autofill. */
export async function passkeySupport(): Promise<{ available: boolean; autofill: boolean }> {
  if (typeof window === 'undefined' || !window.PublicKeyCredential) return { available: false, autofill: false };
  const lib = await webauthn();
  return { available: lib.browserSupportsWebAuthn(), autofill: await lib.browserSupportsWebAuthnAutofill().catch(() => false) };
}

/** The person dismissed the browser's prompt (or another prompt replaced it): nothing to report. */
export function passkeyCancelled(error: unknown): boolean {
  const name = (error as { name?: string; cause?: { name?: string } } | null)?.name;
  const cause = (error as { cause?: { name?: string } } | null)?.cause?.name;
  return name === 'AbortError' || name === 'NotAllowedError' || cause === 'NotAllowedError' || cause === 'AbortError';
}

/**
 * The autofill offer ended before the person chose a passkey: the browser has none, the request was aborted or
 * refused, or its options could not be fetched. Nobody tried a passkey, so there is nothing to report.
 */
export class PasskeyNotChosenError extends Error {
  override readonly name = 'PasskeyNotChosenError';
  constructor(readonly reason: unknown) {
    super('No passkey was chosen from autofill');
  }
}

/**
 * Signs in with a passkey: the browser's prompt, or (with `autofill`) the passkeys the browser offers in the e-mail
 * field, which waits until one is chosen. Resolves once the session cookie is set. With `autofill`, anything that
 * fails before a passkey is chosen rejects with PasskeyNotChosenError; a chosen passkey the server refuses rejects
 * with the server's error, as the prompt's failures do.
 */
export async function signInWithPasskey(options: { autofill?: boolean } = {}): Promise<void> {
  const lib = await webauthn();
  let credential: Awaited<ReturnType<typeof lib.startAuthentication>>;
  try {
    const optionsJSON = await callEndpoint(routes.passkeys.signInOptions);
    credential = await lib.startAuthentication({
      optionsJSON: optionsJSON as unknown as Parameters<typeof lib.startAuthentication>[0]['optionsJSON'],
      useBrowserAutofill: Boolean(options.autofill),
    });
  } catch (err) {
    throw options.autofill ? new PasskeyNotChosenError(err) : err;
  }
  await callEndpoint(routes.passkeys.signIn, { body: { credential: credential as unknown as WebauthnCredential } });
}

/** Stops a waiting passkey prompt (the autofill one, when the dialog closes). */
export async function cancelPasskeyPrompt(): Promise<void> {
  (await webauthn()).WebAuthnAbortService.cancelCeremony();
}

/** Makes a passkey for the signed-in user on this device and adds it under `name`. */
export async function createPasskey(name: string): Promise<Passkey> {
  const lib = await webauthn();
  const optionsJSON = await callEndpoint(routes.passkeys.registrationOptions);
  const credential = await lib.startRegistration({ optionsJSON: optionsJSON as unknown as Parameters<typeof lib.startRegistration>[0]['optionsJSON'] });
  return callEndpoint(routes.passkeys.register, { body: { name, credential: credential as unknown as WebauthnCredential } });
}
