import type { RuntimeConfig } from '@radar/contracts';
import type { Config } from './config.js';
import { configuredRemoteUrls } from './features/remotes/registry.js';

/**
 * The runtime config from the configuration alone. createApp replaces `remotes` with the remote registry's URLs on
 * every page (the configured ones are the registry's initial values).
 */
export function buildRuntimeConfig(config: Config): () => RuntimeConfig {
  return () => ({
    remotes: configuredRemoteUrls(config),
    supportEmail: config.SUPPORT_EMAIL,
    sisterProductUrl: config.SISTER_PRODUCT_URL,
    sisterProductName: config.SISTER_PRODUCT_NAME,
  });
}
