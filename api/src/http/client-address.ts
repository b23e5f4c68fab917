import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';

/**
 * The key every per-address limit counts by. An IPv6 client gets a whole /64 from its provider and can pick any
 * address in it, so a /64 counts as one address ("2001:db8:1:2::/64"); an IPv4-mapped IPv6 address counts as its
 * IPv4 address. `req.ip` is the socket's address unless TRUST_PROXY says which proxies to believe, so a spoofed
 * X-Forwarded-For changes nothing by default.
 */
export function clientAddressKey(ip: string | undefined | null): string | null {
  return ip ? ipKeyGenerator(ip, 64) : null;
}

export function clientAddressOf(req: Request): string | null {
  return clientAddressKey(req.ip);
}

/** Options for express-rate-limit so its limiters count an IPv6 /64 as one client as well. */
export const PER_ADDRESS = { ipv6Subnet: 64 } as const;
