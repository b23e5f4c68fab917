import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of alert webhooks. A webhook URL is a place the server sends requests to on a user's say-so, so it
 * must not point inside the network the server runs in: the URL must be https, and EVERY address its host resolves
 * to must be a public unicast address — not loopback, private (RFC 1918), link-local (cloud metadata at
 * 169.254.169.254 lives there), carrier-grade NAT (100.64/10, Alibaba's metadata), unique-local IPv6 (AWS's
 * fd00:ec2::254), multicast, IPv4-mapped or NAT64 forms of those, or any other special range. It is checked when a
 * channel is saved and again at every delivery, and the delivery connects to the address that was checked (the
 * request pins it), so a DNS answer that changes in between (DNS rebinding) cannot redirect it.
 * `ALLOW_PRIVATE_WEBHOOKS=true` lifts both rules (http and private addresses) for tests and on-premises receivers.
 */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (the system resolver by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * A URL the guard refuses. `message` is for the person who typed it; `detail` (for the server's log only) says which
 * address a host resolved to: telling users that an internal name exists and where it points would map the internal
 * network for them.
 */
export class WebhookUrlError extends Error {
  override readonly name = 'WebhookUrlError';
  constructor(
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
  }
}

/** One answer whatever kept the host out (private, metadata, unresolvable, no address): nothing to tell apart. */
const notPublic = (label: string, host: string, detail: string) =>
  new WebhookUrlError(`${label} host ${host} cannot be used: it must be a public internet host`, detail);

export interface WebhookTarget {
  url: URL;
  /** The checked address the request must connect to. */
  address: ResolvedAddress;
}

export interface GuardOptions {
  allowPrivate: boolean;
  resolve: Resolver;
  /** How messages name the URL ('Webhook URL' unless said). */
  label?: string;
}

/** Well-known instance metadata endpoints, named in refusals so an operator sees what was attempted. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/** Why an address may not be called, or null for a public unicast address. */
export function nonPublicReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'an unparsable';
  }
  // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const normalized = parsed.toNormalizedString();
  const canonical = parsed.kind() === 'ipv6' ? ipaddr.IPv6.parse(normalized).toString() : normalized;
  if (METADATA_ADDRESSES.has(canonical)) return 'a cloud metadata';
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `a ${RANGE_WORDS[range] ?? `special-purpose (${range})`}`;
}

/**
 * Parses and checks a webhook URL: the scheme, no credentials in it, and every address of its host. Returns the
 * URL and the address to connect to; throws WebhookUrlError with a message a user can act on.
 */
export async function checkWebhookUrl(raw: string, opts: GuardOptions): Promise<WebhookTarget> {
  const label = opts.label ?? 'Webhook URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError(`${label} must be a valid URL`);
  }
  const schemes = opts.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new WebhookUrlError(`${label} must start with https://`);
  if (url.username || url.password) throw new WebhookUrlError(`${label} must not contain a user name or password`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
  } else {
    try {
      addresses = await opts.resolve(host);
    } catch (err) {
      throw notPublic(label, host, `${label} host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (addresses.length === 0) throw notPublic(label, host, `${label} host ${host} has no address`);
  }
  if (!opts.allowPrivate) {
    for (const { address } of addresses) {
      const reason = nonPublicReason(address);
      if (reason) throw notPublic(label, host, `${label} host ${host} resolves to ${address}, ${reason} address: refused to protect the internal network`);
    }
  }
  const [first] = addresses;
  if (!first) throw notPublic(label, host, `${label} host ${host} has no address`);
  return { url, address: first };
}
