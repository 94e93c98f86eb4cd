import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { DeliveryRequest } from '#plugin-api';
import { webhookBody, webhookId } from './webhook-message.ts';
import { secretBox } from './secret-box.ts';
import { newSigningSecret } from './webhook-target.ts';

const NOW = new Date('2026-11-26T10:00:00Z');

describe('the signed message', () => {
  const request: DeliveryRequest = {
    ledgerId: 42,
    attempt: 1,
    subscription: {
      id: 1,
      publicId: 'p',
      displayName: 'ops',
      feedId: 'utility.power-outages',
      provider: 'Webhook',
      destination: 'https://hooks.example.org/x',
      scope: 'Anonymous',
    },
    event: { feedId: 'utility.power-outages', eventType: 'NewOutage', sourceKey: 'PO-1', fields: { feeder: 'F12', areas: 'Kandy' }, sourcePayload: {} },
    rendered: { title: 'Power outage: Kandy', body: 'Feeder: F12\nAreas: Kandy', sequenceId: 'po-PO-1', tags: ['warning'], priority: 'High' },
  };

  it('is Standard Webhooks JSON: type <feedId>.<EventType>, the timestamp, and the data', () => {
    expect(JSON.parse(webhookBody(request, NOW))).toEqual({
      type: 'utility.power-outages.NewOutage',
      timestamp: '2026-11-26T10:00:00.000Z',
      data: {
        feedId: 'utility.power-outages',
        eventType: 'NewOutage',
        sourceKey: 'PO-1',
        title: 'Power outage: Kandy',
        body: 'Feeder: F12\nAreas: Kandy',
        priority: 'High',
        tags: ['warning'],
        sequenceId: 'po-PO-1',
        fields: { feeder: 'F12', areas: 'Kandy' },
      },
    });
    expect(webhookId(42)).toBe(webhookId(42));
  });

  it('a secret signs what the standardwebhooks library verifies, and nothing else', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = webhookBody(request, NOW);
    const headers = { 'webhook-id': webhookId(42), 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': '' };
    headers['webhook-signature'] = new Webhook(secret).sign(headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), body);
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(body.replace('Kandy', 'Galle'), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });
});

describe('secretBox', () => {
  it('stores a secret as it is without a key, sealed with one, and opens it again', () => {
    const secret = newSigningSecret();
    expect(secretBox(undefined).seal(secret)).toBe(secret);
    const box = secretBox('k'.repeat(32));
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(sealed).toMatch(/^v1\./);
    expect(box.open(sealed, true)).toBe(secret);
    expect(() => secretBox('x'.repeat(32)).open(sealed, true)).toThrow();
    expect(() => secretBox(undefined).open(sealed, true)).toThrow(/Webhook__EncryptionKey/);
  });
});
