import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES, pushPayload, pushTopic, pushUrgency } from './push-message.ts';

describe('pushTopic', () => {
  it('is the sequence id when it is at most 32 base64url characters, else a digest of it of that length', () => {
    expect(pushTopic('po-PO-1')).toBe('po-PO-1');
    const long = pushTopic('so-utility.scheduled-outages:SO-2026-11-26-0001');
    expect(long).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('so-utility.scheduled-outages:SO-2026-11-26-0001')).toBe(long);
    expect(pushTopic('a:b')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('urgency is high for High and Urgent only', () => {
    expect(['Min', 'Low', 'Default', 'High', 'Urgent'].map(pushUrgency)).toEqual(['normal', 'normal', 'normal', 'high', 'high']);
  });
});

describe('pushPayload', () => {
  const request = (body: string) =>
    ({ rendered: { title: 'Power outage: Kandy', body, sequenceId: 'po-1', priority: 'High', tags: [] } }) as unknown as Parameters<typeof pushPayload>[0];
  it('keeps a short alert whole, and cuts a long body (by code points) so the payload fits a push service', () => {
    expect(JSON.parse(pushPayload(request('Feeder: F12'), 'https://a.example/m'))).toEqual({
      title: 'Power outage: Kandy',
      body: 'Feeder: F12',
      tag: 'po-1',
      priority: 'High',
      url: 'https://a.example/m',
    });
    const long = pushPayload(request('මහනුවර '.repeat(2000)), 'https://a.example/m');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(JSON.parse(long).body.endsWith('…')).toBe(true);
    expect(JSON.parse(long).body.isWellFormed()).toBe(true);
  });
});
