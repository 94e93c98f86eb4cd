import ipaddr from 'ipaddr.js';

/**
 * Who the client is, pure. The socket address, or, when the
 * socket is a trusted proxy, the right-most X-Forwarded-For entry that is
 * not itself a trusted proxy. An entry that is not an IP address (`hello`,
 * `<script>`, a port suffix, 4,000 characters) is ignored: the next one to
 * the left counts, or, when none is left, the last trusted hop. Addresses
 * are normalised (IPv4 dotted decimal, IPv4-mapped IPv6 as IPv4, IPv6 in
 * RFC 5952 form), so `2001:DB8::1` and `2001:db8:0::1` are one client.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
/** Whether an address is a trusted proxy. Fastify's trustProxy calls it too, with the socket's address: undefined once the socket is gone. */
export type TrustCheck = (address: string | undefined) => boolean;

// Longest text form of an address: an IPv4-mapped IPv6 address written in full.
const MAX_ADDRESS_LENGTH = 45;

// Parsed addresses by their text: a request parses its socket's and its forwarded addresses several times (trust,
// normalising, the limits' key), and clients come back. Bounded: emptied when full. The parsed values are never changed.
const parsedCache = new Map<string, Address | null>();
const PARSED_CACHE_SIZE = 4096;

function parse(text: string): Address | null {
  let parsed = parsedCache.get(text);
  if (parsed === undefined) {
    parsed = parseUncached(text);
    if (parsedCache.size >= PARSED_CACHE_SIZE) parsedCache.clear();
    parsedCache.set(text, parsed);
  }
  return parsed;
}

function parseUncached(text: string): Address | null {
  const value = text.trim();
  if (value === '' || value.length > MAX_ADDRESS_LENGTH) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value);
  // ipaddr also takes classful IPv4 (`127.1`, `0x7f.1`) and zone ids: neither is a client address.
  if (!value.includes(':') || value.includes('%') || !ipaddr.IPv6.isValid(value)) return null;
  const v6 = ipaddr.IPv6.parse(value);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** The normalised text of an IP address, or null when the text is not one. */
export function normaliseAddress(text: string | undefined): string | null {
  return text === undefined ? null : (parse(text)?.toString() ?? null);
}

/**
 * The address the per-address limits count: an IPv4 address itself, an
 * IPv6 address as its network of `ipv6PrefixLength` bits (`2001:db8:1:1::/64`),
 * since one subscriber line gets a whole /64 and picks any address in it.
 */
export function limitKey(address: string, ipv6PrefixLength: number): string {
  const parsed = parse(address);
  if (!parsed) return address;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().map((byte, index) => {
    const bitsKept = Math.max(0, Math.min(8, ipv6PrefixLength - index * 8));
    return byte & ((0xff << (8 - bitsKept)) & 0xff);
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixLength}`;
}

export function isLoopback(address: string): boolean {
  return parse(address)?.range() === 'loopback';
}

// proxy-addr's names, which Server__TrustedProxies has always taken.
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** A trust check from addresses, CIDR ranges and the names loopback, linklocal, uniquelocal; throws naming a bad entry. */
export function compileTrust(entries: readonly string[]): TrustCheck {
  const ranges: Array<[Address, number]> = [];
  for (const entry of entries.flatMap((item) => NAMED_RANGES[item.trim().toLowerCase()] ?? [item.trim()])) {
    const [addressText, bitsText] = entry.split('/');
    const address = parse(addressText ?? '');
    const maxBits = address?.kind() === 'ipv4' ? 32 : 128;
    const bits = bitsText === undefined ? maxBits : Number(bitsText);
    if (!address || !Number.isInteger(bits) || bits < 0 || bits > maxBits) {
      throw new Error(`Server__TrustedProxies: "${entry}" is not an IP address or CIDR range`);
    }
    ranges.push([address, bits]);
  }
  return (text) => {
    const address = text === undefined ? null : parse(text);
    return address !== null && ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  };
}

/** The client's normalised address (see above). */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustCheck): string {
  const socket = normaliseAddress(socketAddress) ?? 'unknown';
  if (forwardedFor === undefined || !trusted(socket)) return socket;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  let client = socket;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const address = normaliseAddress(entries[index]);
    if (address === null) continue;
    client = address;
    if (!trusted(address)) return address;
  }
  return client;
}
