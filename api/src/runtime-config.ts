import type { RuntimeConfig } from '@radar/contracts';
import type { Config } from './config.js';

export function buildRuntimeConfig(config: Config): () => RuntimeConfig {
  return () => ({
    remotes: {
      dashboard: config.REMOTE_DASHBOARD_URL ?? '/remotes/dashboard/mf-manifest.json',
      admin: config.REMOTE_ADMIN_URL ?? '/remotes/admin/mf-manifest.json',
      digest: config.REMOTE_DIGEST_URL ?? '/remotes/digest/mf-manifest.json',
    },
    supportEmail: config.SUPPORT_EMAIL,
    sisterProductUrl: config.SISTER_PRODUCT_URL,
    sisterProductName: config.SISTER_PRODUCT_NAME,
  });
}
