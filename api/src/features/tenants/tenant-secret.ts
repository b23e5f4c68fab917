import { deriveSealKey, seal, unseal } from '../../lib/sealed-box.js';

/**
 * Tenants' client secrets are sealed at rest with a key of their own, derived from the installation secret (as
 * channel secrets are), and never returned by the API: admins see whether one is set and when it expires.
 */
export const tenantSecretKey = (installationSecret: string) => deriveSealKey(installationSecret, 'radar-tenant-secrets-v1');

export const sealTenantSecret = (key: Buffer, secret: string) => seal(key, secret);

/** The secret, or null when none is stored or it cannot be read (the installation secret changed since). */
export function openTenantSecret(key: Buffer, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return unseal(key, sealed);
  } catch {
    return null;
  }
}
