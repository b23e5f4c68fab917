import crypto from 'node:crypto';
import { deriveSealKey, seal, unseal } from '../../lib/sealed-box.js';

/**
 * Webhook URLs (Slack and Teams URLs are bearer credentials: whoever has one can post to the channel) and webhook
 * signing secrets are stored sealed with a key of their own (lib/sealed-box.ts) and never shown again after
 * creation: the owner sees `urlHint`, the host and the URL's last 4 characters.
 */
export const channelKey = (installationSecret: string) => deriveSealKey(installationSecret, 'radar-alert-channels-v1');

export const sealChannelValue = (key: Buffer, value: string) => seal(key, value);

/** The plain value, or null when it cannot be read (the installation secret changed since it was stored). */
export function openChannelValue(key: Buffer, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return unseal(key, sealed);
  } catch {
    return null;
  }
}

/** `hooks.slack.com …aB3x`: enough to tell channels apart, useless to an attacker. */
export function urlHint(url: string): string {
  const { host } = new URL(url);
  return `${host} …${url.slice(-4)}`;
}

/** A generic webhook's HMAC key, shown once when the channel is created. */
export const newSigningSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`;

/** `X-Radar-Signature`: `v1=` + hex HMAC-SHA256 over `<timestamp>.<body>`, so the timestamp cannot be swapped. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
