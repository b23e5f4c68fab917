import crypto from 'node:crypto';

/**
 * Values that must not be readable from the database (mail carrying a sign-in code, webhook URLs and signing
 * secrets of alert channels) are stored sealed: AES-256-GCM with a fresh 96-bit IV per value, the key derived from
 * the installation secret with HKDF-SHA256 and bound to one use (`context`), so two uses never share a key.
 * Format `v1.<iv>.<tag>.<ciphertext>`, each part base64url. Rotating the installation secret makes sealed values
 * unreadable (opening throws): their owners must enter them again.
 */
const VERSION = 'v1';
const IV_BYTES = 12;

/** A 256-bit key for one use of the installation secret (e.g. 'radar-mail-outbox-v1'). */
export function deriveSealKey(secret: string, context: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), context, 32));
}

export function seal(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const encrypted = Buffer.concat([cipher.update(Buffer.from(plain, 'utf8')), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), encrypted.toString('base64url')].join('.');
}

/** The plain text of a sealed value; throws when it was altered or sealed with another key. */
export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('sealed value has an unknown format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
