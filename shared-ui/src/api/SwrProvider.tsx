import type { ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { CACHE } from '../presentation/ui-constants.js';
import { swrFetcher } from './api-client.js';

/**
 * The product's cache defaults (docs/product/shared-behaviour.md). Fresh 5 minutes: a component mounting within 5 minutes of the last request for its key
 * reuses the answer (dedupingInterval), later it shows the cached answer and refetches (revalidateIfStale). No
 * retries, no focus or reconnect refetch, no refresh interval. SWR has no garbage collection: an entry lives as
 * long as the page, which keeps it at least the 10 minutes the product promises (CACHE.keptMs).
 */
export const swrDefaults: SWRConfiguration = {
  fetcher: swrFetcher,
  dedupingInterval: CACHE.freshMs,
  revalidateIfStale: true,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
  refreshInterval: 0,
};

export interface SwrProviderProps {
  children: ReactNode;
  /** Overrides, e.g. `{ provider: () => new Map() }` to isolate tests. */
  value?: SWRConfiguration;
}

export function SwrProvider({ children, value }: SwrProviderProps) {
  return <SWRConfig value={{ ...swrDefaults, ...value }}>{children}</SWRConfig>;
}
