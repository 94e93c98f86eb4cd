import { describe, expect, it } from 'vitest';
import { checkOutboundUrl, isListedHost, isPublicAddress, publicOnlyLookup } from './outbound-url.ts';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['::7f00:1', false],
    ['::ffff:0:7f00:1', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:7f00:1::', false],
    ['fec0::1', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('isListedHost', () => {
  it.each<[string, string[], boolean]>([
    ['fcm.googleapis.com', ['fcm.googleapis.com'], true],
    ['FCM.googleapis.com', ['fcm.googleapis.com'], true],
    ['web.push.apple.com', ['*.push.apple.com'], true],
    ['push.apple.com', ['*.push.apple.com'], false],
    ['evilpush.apple.com', ['*.push.apple.com'], false],
    ['fcm.googleapis.com.evil.example', ['fcm.googleapis.com'], false],
    ['127.0.0.1', ['127.0.0.1'], true],
  ])('%s in %j → %s', (host, list, expected) => {
    expect(isListedHost(host, list)).toBe(expected);
  });
});

describe('checkOutboundUrl', () => {
  const webhooks = { allowedHosts: ['127.0.0.1'], listedOnly: false };
  const push = { allowedHosts: ['fcm.googleapis.com', '*.push.apple.com'], listedOnly: true };
  it.each<[string, string, typeof webhooks, RegExp | null]>([
    ['a public https URL', 'https://hooks.example.org/alerts?x=1', webhooks, null],
    ['http to a public host', 'http://hooks.example.org/alerts', webhooks, /must be an https URL/],
    ['http to a listed loopback receiver (tests)', 'http://127.0.0.1:8080/hook', webhooks, null],
    ['a loopback address not listed', 'https://127.0.0.2/hook', webhooks, /not a public address/],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', webhooks, /not a public address/],
    ['a private IPv6 literal', 'https://[fd00::1]/hook', webhooks, /not a public address/],
    ['localhost by name', 'https://localhost/hook', webhooks, /not a public address/],
    ['credentials in the URL', 'https://user:pass@hooks.example.org/', webhooks, /user name or password/],
    ['not a URL', 'hooks.example.org/alerts', webhooks, /absolute https URL/],
    ['port 0', 'https://hooks.example.org:0/alerts', webhooks, /must not name port 0/],
    ['port 0 written long', 'https://hooks.example.org:000/alerts', webhooks, /must not name port 0/],
    ['another port', 'https://hooks.example.org:8443/alerts', webhooks, null],
    ['a push service on the list', 'https://fcm.googleapis.com/fcm/send/abc', push, null],
    ['a push service by wildcard', 'https://web.push.apple.com/QGs', push, null],
    ['a host off the push list', 'https://push.example.org/abc', push, /not an allowed host/],
  ])('%s', (_name, url, policy, error) => {
    if (error === null) expect(checkOutboundUrl(url, policy, 'body/delivery/destination').href).toBe(new URL(url).href);
    else expect(() => checkOutboundUrl(url, policy, 'body/delivery/destination')).toThrow(error);
  });

  it('names the field', () => {
    expect(() => checkOutboundUrl('ftp://x', webhooks, 'body/delivery/destination')).toThrow(/^body\/delivery\/destination/);
  });
});

describe('publicOnlyLookup', () => {
  const lookup = (host: string, allowed: string[], all = false) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      publicOnlyLookup(allowed)(host, { all }, (err, address) => resolve({ err, address })),
    );

  it('refuses a name that resolves only to loopback, unless the host is listed', async () => {
    const refused = await lookup('localhost', []);
    expect(refused.err?.code).toBe('EADDRNOTPUBLIC');
    const listed = await lookup('localhost', ['localhost'], true);
    expect(listed.err).toBeNull();
    expect((listed.address as Array<{ address: string }>).some((entry) => entry.address === '127.0.0.1' || entry.address === '::1')).toBe(true);
  });

  it('refuses an IP literal that is not public', async () => {
    expect((await lookup('127.0.0.1', [])).err?.code).toBe('EADDRNOTPUBLIC');
    expect((await lookup('169.254.169.254', [])).err?.code).toBe('EADDRNOTPUBLIC');
  });
});
