import { deriveSealKey, seal, unseal } from '../lib/sealed-box.js';

/**
 * Sensitive mail (a sign-in code, a confirmation link) must not be readable from the database: the outbox keeps its
 * subject, HTML and text only encrypted (AES-256-GCM, key derived from the installation secret with HKDF: lib/sealed-box.ts), the
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

/** The outbox key: HKDF-SHA256 of the installation secret, bound to this use so it never equals another derived key. */
export function deriveOutboxKey(secret: string): Buffer {
  return deriveSealKey(secret, 'radar-mail-outbox-v1');
}

/** Encrypts the content with a fresh IV (lib/sealed-box.ts: `v1.<iv>.<tag>.<ciphertext>`). */
export function sealContent(key: Buffer, content: MailContent): string {
  return seal(key, JSON.stringify({ s: content.subject, h: content.html, t: content.text }));
}

/** The content of a sealed value; throws when it was altered or sealed with another secret. */
export function openContent(key: Buffer, sealed: string): MailContent {
  const parsed = JSON.parse(unseal(key, sealed)) as { s: string; h: string; t: string };
  return { subject: parsed.s, html: parsed.h, text: parsed.t };
}
