import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Errors } from './errors.ts';

/**
 * Where a target may send to, when people name the address (a webhook
 * URL, a browser's push endpoint): untrusted URLs from anonymous callers.
 * A host is "listed" when it equals an entry of `allowedHosts`
 * (case-insensitive) or ends with an entry written `*.example.org`.
 */
export interface OutboundPolicy {
  readonly allowedHosts: readonly string[];
  /** true: only listed hosts (push services); false: any public host, and listed ones even when private (webhooks). */
  readonly listedOnly: boolean;
}

// What no request from the service should reach unless an operator lists it: private, loopback, link-local, shared, reserved.
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
// IPv6 forms that embed an IPv4 address or reach no public host: IPv4-compatible (::/96), NAT64 (64:ff9b::/96,
// 64:ff9b:1::/48), SIIT (::ffff:0:0:0/96), 6to4 (2002::/16), site-local (fec0::/10), unique-local, link-local,
// multicast, documentation.
for (const [network, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96],
  ['2002::', 16],
  ['2001:db8::', 32],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4). Pure. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a host name matches the list (exact, or a `*.suffix` entry). Pure. */
export function isListedHost(host: string, allowedHosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowedHosts.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted.startsWith('*.') ? name.endsWith(wanted.slice(1)) && name.length > wanted.length - 1 : name === wanted;
  });
}

/**
 * Checks a URL a person gave (pure): `https`, no user name or password in
 * it, a host the policy allows; `http` only to a listed host (a test's
 * loopback receiver). An IP literal must be public unless listed. Throws
 * Errors.InvalidField naming `field`; answers the URL.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Errors.InvalidField(`${field} must be an absolute https URL`);
  }
  const listed = isListedHost(url.hostname, policy.allowedHosts);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && listed)) throw new Errors.InvalidField(`${field} must be an https URL`);
  if (url.username !== '' || url.password !== '') throw new Errors.InvalidField(`${field} must not hold a user name or password`);
  if (url.hash !== '') throw new Errors.InvalidField(`${field} must not have a #fragment`);
  // Port 0 is no port a server listens on (a connect to it fails, or means "any" to some stacks): never a destination.
  if (url.port === '0') throw new Errors.InvalidField(`${field} must not name port 0`);
  if (policy.listedOnly && !listed) throw new Errors.InvalidField(`${field}: ${url.hostname} is not an allowed host`);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!listed && (isIP(literal) !== 0 ? !isPublicAddress(literal) : /^localhost$|\.localhost$|\.local$|\.internal$/i.test(literal))) {
    throw new Errors.InvalidField(`${field}: ${url.hostname} is not a public address`);
  }
  return url;
}

export type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for undici's `connect.lookup`: the addresses a host
 * resolves to at connect time, the ones that are not public left out
 * unless the host is listed. A host left with none fails the connection
 * (`EADDRNOTPUBLIC`), so a name that resolves to a private address (at
 * once, or after the URL was checked: DNS rebinding) is never reached.
 */
export function publicOnlyLookup(allowedHosts: readonly string[]) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const usable = isListedHost(hostname, allowedHosts) ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to no public address`), { code: 'EADDRNOTPUBLIC' });
        return callback(refused, []);
      }
      if (options.all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
