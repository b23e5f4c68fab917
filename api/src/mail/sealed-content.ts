import crypto from 'node:crypto';

/**
 * Sensitive mail (a sign-in code, a confirmation link) must not be readable from the database: the outbox keeps its
 * subject, HTML and text only encrypted (AES-256-GCM, key derived from the installation secret with HKDF), the
 * delivery job decrypts it just before handing it to SMTP, and the ciphertext is deleted once the mail was sent, failed
 * for good, or outlived the secret it carries. A database dump therefore never yields a live code.
 */
export interface MailContent {
  subject: string;
  html: string;
  text: string;
}

/** What the subject, html and text columns of a sealed row hold: nothing secret. */
export const SEALED_PLACEHOLDER = { subject: '(encrypted until sent)', html: '', text: '' } as const;

const VERSION = 'v1';
const IV_BYTES = 12;

/** The outbox key: HKDF-SHA256 of the installation secret, bound to this use so it never equals another derived key. */
export function deriveOutboxKey(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'radar-mail-outbox-v1', 32));
}

/** Encrypts the content with a fresh IV: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealContent(key: Buffer, content: MailContent): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const plain = Buffer.from(JSON.stringify({ s: content.subject, h: content.html, t: content.text }), 'utf8');
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), encrypted.toString('base64url')].join('.');
}

/** The content of a sealed value; throws when it was altered or sealed with another secret. */
export function openContent(key: Buffer, sealed: string): MailContent {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('sealed mail content has an unknown format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  const parsed = JSON.parse(plain) as { s: string; h: string; t: string };
  return { subject: parsed.s, html: parsed.h, text: parsed.t };
}
