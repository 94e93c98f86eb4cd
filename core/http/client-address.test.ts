import { describe, expect, it } from 'vitest';
import { compileTrust, isLoopback, limitKey, normaliseAddress, resolveClientAddress } from './client-address.ts';

const loopbackProxy = compileTrust(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

describe('normaliseAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['::ffff:198.51.100.1', '198.51.100.1'],
    ['::FFFF:c633:6401', '198.51.100.1'],
    ['::1', '::1'],
    ['hello', null],
    ['<script>', null],
    ['', null],
    ['x'.repeat(4000), null],
    ['127.1', null],
    ['0x7f.0.0.1', null],
    ['010.0.0.1', null],
    ['203.0.113.7:8080', null],
    ['[2001:db8::1]:443', null],
    ['fe80::1%eth0', null],
    ['1.2.3.4.5', null],
    ['2001:db8::1\u0000', null],
  ])('%j → %j', (input, expected) => {
    expect(normaliseAddress(input)).toBe(expected);
  });
});

describe('resolveClientAddress', () => {
  it.each([
    ['no header: the socket', '203.0.113.1', undefined, '203.0.113.1'],
    ['an untrusted socket: its header is ignored', '203.0.113.1', '198.51.100.9', '203.0.113.1'],
    ['from the proxy: the right-most entry', '127.0.0.1', '198.51.100.9', '198.51.100.9'],
    ['from the proxy: the right-most untrusted entry', '127.0.0.1', '198.51.100.8, 198.51.100.9, 127.0.0.1', '198.51.100.9'],
    ['a garbage entry is skipped', '127.0.0.1', '198.51.100.9, hello', '198.51.100.9'],
    ['garbage between proxies is skipped', '::1', '198.51.100.9, <script>, ::1', '198.51.100.9'],
    ['nothing usable: the socket', '127.0.0.1', 'hello', '127.0.0.1'],
    ['an empty header: the socket', '127.0.0.1', '', '127.0.0.1'],
    ['4,000 characters: the socket', '127.0.0.1', 'x'.repeat(4000), '127.0.0.1'],
    ['only trusted hops: the furthest one', '127.0.0.1', '::1, 127.0.0.1', '::1'],
    ['spelling is normalised', '127.0.0.1', '2001:DB8::1', '2001:db8::1'],
    ['a mapped proxy socket counts as the IPv4 proxy', '::ffff:127.0.0.1', '198.51.100.9', '198.51.100.9'],
    ['a repeated header is one list', '127.0.0.1', ['198.51.100.8', '198.51.100.9'], '198.51.100.9'],
    ['the socket is normalised too', '::ffff:203.0.113.1', undefined, '203.0.113.1'],
    ['no socket address', undefined, undefined, 'unknown'],
  ])('%s', (_name, socket, header, expected) => {
    expect(resolveClientAddress(socket, header, loopbackProxy)).toBe(expected);
  });

  it('trusts CIDR ranges and the named ranges', () => {
    const trust = compileTrust(['10.0.0.0/8', 'loopback']);
    expect(resolveClientAddress('10.1.2.3', '198.51.100.9, 10.9.9.9', trust)).toBe('198.51.100.9');
    expect(resolveClientAddress('127.0.0.5', '198.51.100.9', trust)).toBe('198.51.100.9');
    expect(resolveClientAddress('11.0.0.1', '198.51.100.9', trust)).toBe('11.0.0.1');
    // Fastify's trustProxy asks with the socket's address, undefined once the socket is gone.
    expect(trust(undefined)).toBe(false);
    expect(() => compileTrust(['nginx'])).toThrow(/Server__TrustedProxies: "nginx"/);
    expect(() => compileTrust(['10.0.0.0/33'])).toThrow(/10\.0\.0\.0\/33/);
  });
});

describe('limitKey', () => {
  it.each([
    ['203.0.113.7', 64, '203.0.113.7'],
    ['2001:db8:1:1::1', 64, '2001:db8:1:1::/64'],
    ['2001:db8:1:1:ffff:ffff:ffff:ffff', 64, '2001:db8:1:1::/64'],
    ['2001:db8:1:1::1', 48, '2001:db8:1::/48'],
    ['2001:db8:1:ff::1', 56, '2001:db8:1::/56'],
    ['2001:db8:1:1ff::1', 60, '2001:db8:1:1f0::/60'],
    ['2001:db8::1', 128, '2001:db8::1/128'],
    ['::1', 64, '::/64'],
  ])('%s /%i → %s', (address, bits, expected) => {
    expect(limitKey(address, bits)).toBe(expected);
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['2001:db8::1', false],
    ['unknown', false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});
