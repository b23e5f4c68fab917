import { PRODUCT_NAME, RUNTIME_CONFIG_GLOBAL, type RuntimeConfig } from '@radar/contracts';

type ConfigWindow = Window & { [RUNTIME_CONFIG_GLOBAL]?: RuntimeConfig };

/** Used until the shell has loaded the real configuration (and in tests). */
export const fallbackRuntimeConfig: RuntimeConfig = {
  remotes: {
    dashboard: '/remotes/dashboard/mf-manifest.json',
    admin: '/remotes/admin/mf-manifest.json',
    digest: '/remotes/digest/mf-manifest.json',
  },
  supportEmail: 'support@m365radar.com',
  sisterProductUrl: 'https://m365maps.com/',
  sisterProductName: 'M365 Maps',
};

/** The configuration the server served with the page (the shell stores /config.json here too). */
export function getRuntimeConfig(): RuntimeConfig {
  if (typeof window === 'undefined') return fallbackRuntimeConfig;
  return (window as ConfigWindow)[RUNTIME_CONFIG_GLOBAL] ?? fallbackRuntimeConfig;
}

export function useRuntimeConfig(): RuntimeConfig {
  return getRuntimeConfig();
}

export { PRODUCT_NAME };
