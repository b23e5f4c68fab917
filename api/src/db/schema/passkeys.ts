/** Passkeys (WebAuthn credentials) users sign in with, and the challenges the ceremonies answer. */
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { bytea, ts } from './columns.js';
import { users } from './people.js';

/**
 * A passkey of a user: the credential id and public key the authenticator made (the private key never leaves it), the
 * signature counter last seen (a counter that goes back means a cloned authenticator: refused), a name the user chose,
 * and when it was last used.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url of the credential id, as the browser names it. */
    credentialId: text('credential_id').notNull().unique(),
    publicKey: bytea('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    /** usb, nfc, ble, internal, hybrid: where the browser may look for it. */
    transports: text('transports').array().notNull().default([]),
    /** singleDevice | multiDevice (synced, e.g. iCloud Keychain or Google Password Manager). */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * A challenge handed to the browser for one ceremony: registration (bound to the signed-in user) or sign-in (no user
 * yet). Found again by its value in the answer's clientDataJSON, used once, valid for a few minutes.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    /** register | sign-in */
    purpose: text('purpose').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);
