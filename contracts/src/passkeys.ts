import { z } from './zod.js';

/** Passkeys a user may hold. */
export const PASSKEYS_MAX = 20;

/** A passkey as /profile lists it (never its key). */
export const passkey = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced between the user's devices (a password manager's passkey) or bound to one device (a security key). */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;
export const passkeysResponse = z.array(passkey);
export type PasskeysResponse = z.infer<typeof passkeysResponse>;

export const passkeyIdParams = z.object({ id: z.coerce.number({ error: 'id must be a number' }).int().positive('id must be a positive number') });
export type PasskeyIdParams = z.infer<typeof passkeyIdParams>;

const passkeyName = z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(60, 'name must be at most 60 characters');

/**
 * The options of a WebAuthn ceremony as the browser library takes them (PublicKeyCredentialCreationOptionsJSON or
 * …RequestOptionsJSON): made by the server, passed through by the app.
 */
export const webauthnOptions = z.record(z.string(), z.unknown());
export type WebauthnOptions = z.infer<typeof webauthnOptions>;

const b64url = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .max(8192, `${field} is too long`)
    .regex(/^[A-Za-z0-9_-]*$/, `${field} must be base64url`);

/** What the browser library answers a ceremony with (RegistrationResponseJSON or AuthenticationResponseJSON). */
export const webauthnCredential = z.object({
  id: b64url('credential.id'),
  rawId: b64url('credential.rawId'),
  type: z.literal('public-key', { error: 'credential.type must be public-key' }),
  response: z.record(z.string(), z.unknown(), { error: 'credential.response is required' }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(40).optional(),
});
export type WebauthnCredential = z.input<typeof webauthnCredential>;

/** POST /api/auth/passkeys: the new passkey's answer to the registration options, and its name. */
export const registerPasskeyRequest = z.object({ name: passkeyName, credential: webauthnCredential });
export type RegisterPasskeyRequest = z.input<typeof registerPasskeyRequest>;

/** PATCH /api/auth/passkeys/{id}: a new name. */
export const renamePasskeyRequest = z.object({ name: passkeyName });
export type RenamePasskeyRequest = z.infer<typeof renamePasskeyRequest>;

/** POST /api/auth/passkeys/sign-in: the passkey's answer to the sign-in options. */
export const passkeySignInRequest = z.object({ credential: webauthnCredential });
export type PasskeySignInRequest = z.input<typeof passkeySignInRequest>;
