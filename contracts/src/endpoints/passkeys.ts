import { defineEndpoints } from '../endpoint.js';
import { resultMessage } from '../common.js';
import {
  passkey,
  passkeyIdParams,
  passkeySignInRequest,
  passkeysResponse,
  registerPasskeyRequest,
  renamePasskeyRequest,
  webauthnOptions,
} from '../passkeys.js';
import { keepTokensQuery } from '../tokens.js';

/**
 * Passkeys (WebAuthn): any signed-in user adds, names, lists and removes theirs on /profile; anyone signs in with one
 * instead of an e-mailed code; a signed-in user confirms it is them (a step-up) before an admin's guarded actions. The
 * options are made by the server (a one-time challenge each); the answers are verified against them.
 */
export const passkeyEndpoints = defineEndpoints('passkeys', {
  list: {
    method: 'GET',
    path: '/api/auth/passkeys',
    summary: "The caller's passkeys: name, when added and last used (never a key)",
    access: 'signedIn',
    response: passkeysResponse,
  },
  registrationOptions: {
    method: 'POST',
    path: '/api/auth/passkeys/registration-options',
    summary: 'Options to make a new passkey for the caller (a one-time challenge; their passkeys excluded)',
    access: 'signedIn',
    response: webauthnOptions,
  },
  register: {
    method: 'POST',
    path: '/api/auth/passkeys',
    summary: 'Adds the passkey the browser made from the registration options, once its answer is verified',
    access: 'signedIn',
    body: registerPasskeyRequest,
    bodyLimit: '32kb',
    response: passkey,
    status: [201],
  },
  rename: {
    method: 'PATCH',
    path: '/api/auth/passkeys/:id',
    summary: 'Renames one of the caller’s passkeys',
    access: 'signedIn',
    params: passkeyIdParams,
    body: renamePasskeyRequest,
    bodyLimit: '2kb',
    response: passkey,
  },
  remove: {
    method: 'DELETE',
    path: '/api/auth/passkeys/:id',
    summary: 'Removes one of the caller’s passkeys (it no longer signs in)',
    access: 'signedIn',
    params: passkeyIdParams,
    response: resultMessage,
  },
  resetOfUser: {
    method: 'DELETE',
    path: '/api/admin/users/:id/passkeys',
    summary:
      'Removes every passkey of a user (an admin who lost theirs), ends their sessions and revokes their API tokens unless keepTokens=true: they sign in with a code and add new ones',
    access: 'admin',
    params: passkeyIdParams,
    query: keepTokensQuery,
    response: resultMessage,
  },
  signInOptions: {
    method: 'POST',
    path: '/api/auth/passkeys/sign-in-options',
    summary: 'Options to sign in with a passkey (a one-time challenge; any passkey of this site may answer)',
    access: 'public',
    response: webauthnOptions,
  },
  reauthOptions: {
    method: 'POST',
    path: '/api/auth/passkeys/reauth-options',
    summary: 'Options to confirm it is the caller with one of their own passkeys (a one-time challenge; user verification required)',
    access: 'signedIn',
    response: webauthnOptions,
  },
  reauth: {
    method: 'POST',
    path: '/api/auth/passkeys/reauth',
    summary: 'Confirms it is the caller with one of their passkeys (user verified): the session is replaced by a new one that records the passkey proved now',
    access: 'signedIn',
    body: passkeySignInRequest,
    bodyLimit: '32kb',
    response: resultMessage,
  },
  signIn: {
    method: 'POST',
    path: '/api/auth/passkeys/sign-in',
    summary: 'Signs in with a passkey: its answer to the sign-in options is verified and a session begins',
    access: 'public',
    body: passkeySignInRequest,
    bodyLimit: '32kb',
    response: resultMessage,
  },
});
