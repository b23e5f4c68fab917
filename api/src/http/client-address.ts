import type { Express, Request } from 'express';
import type { IncomingMessage } from 'node:http';
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

/**
 * `req.ip` as Express works it out (the socket's address, or X-Forwarded-For as far as TRUST_PROXY trusts it) for a
 * request Express has not seen yet (the list's lane, in front of it): its own getter, read for this request.
 */
export function addressBeforeExpress(app: Express, req: IncomingMessage): string | undefined {
  return Reflect.get(app.request, 'ip', { app, headers: req.headers, socket: req.socket, connection: req.socket }) as string | undefined;
}

/**
 * A coarse network for people to read ("203.0.113.0/24", "2001:db8:1::/48"): where a session or token was used, close
 * enough to recognise one's own office or home, not a person's address.
 */
export function networkOf(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const key = ipKeyGenerator(ip, 48);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(key);
  return v4 ? `${v4[1]}.${v4[2]}.${v4[3]}.0/24` : key;
}

/** Options for express-rate-limit so its limiters count an IPv6 /64 as one client as well. */
export const PER_ADDRESS = { ipv6Subnet: 64 } as const;
