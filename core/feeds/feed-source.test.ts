import { describe, expect, it } from 'vitest';
import { feedSource, monitorSection } from './feed-source.ts';

const SHARED = { BaseUrl: 'https://utility.example.org/api', ApiKey: 'utility-key' };

describe('feedSource: where a feed polls, and with whose key', () => {
  it.each<[string, { BaseUrl?: string; ApiKey?: string }, { BaseUrl?: string; ApiKey?: string } | null, { baseUrl: string | null; apiKey: string | null }]>([
    ['a shipped feed with nothing of its own: the shared pair', {}, SHARED, { baseUrl: SHARED.BaseUrl, apiKey: 'utility-key' }],
    ['a shipped feed with a key of its own on the shared address', { ApiKey: 'own-key' }, SHARED, { baseUrl: SHARED.BaseUrl, apiKey: 'own-key' }],
    [
      'a shipped feed with an address of its own: never the shared key',
      { BaseUrl: 'https://other.example.org' },
      SHARED,
      { baseUrl: 'https://other.example.org', apiKey: null },
    ],
    [
      'a shipped feed with its own pair',
      { BaseUrl: 'https://other.example.org', ApiKey: 'own-key' },
      SHARED,
      { baseUrl: 'https://other.example.org', apiKey: 'own-key' },
    ],
    [
      'any other feed: its own pair only',
      { BaseUrl: 'https://transit.example.org', ApiKey: 'transit-key' },
      null,
      { baseUrl: 'https://transit.example.org', apiKey: 'transit-key' },
    ],
    ['any other feed with no key: none sent', { BaseUrl: 'https://transit.example.org' }, null, { baseUrl: 'https://transit.example.org', apiKey: null }],
    ['any other feed with no address: none', {}, null, { baseUrl: null, apiKey: null }],
    ['a shipped feed when nothing is set', {}, {}, { baseUrl: null, apiKey: null }],
  ])('%s', (_name, own, shared, expected) => {
    expect(feedSource('Transit', own, shared)).toMatchObject(expected);
  });

  it('names the keys to set when there is no address', () => {
    expect(feedSource('Transit', {}, null).missing).toBe('Transit__BaseUrl');
    expect(feedSource('PowerOutages', {}, {}).missing).toBe('PowerOutages__BaseUrl (or ExternalProvider__BaseUrl)');
  });

  it("finds the section a monitor's settings are", () => {
    const transit = { Enabled: true };
    expect(monitorSection({ Other: {}, Transit: transit }, transit)).toBe('Transit');
    expect(monitorSection({ 'Notifications:Transit': transit }, transit)).toBe('Notifications__Transit');
  });
});
