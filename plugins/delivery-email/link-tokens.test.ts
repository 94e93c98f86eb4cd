import { describe, expect, it } from 'vitest';
import { hashToken, isUnsubscribeToken, newVerificationToken, subscriptionLink, unsubscribeToken } from './link-tokens.ts';

describe('link tokens', () => {
  it('verification tokens are random, URL-safe, and stored as a hash that is not the token', () => {
    const a = newVerificationToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newVerificationToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });

  it('an unsubscribe token holds for its subscription and key only', () => {
    const token = unsubscribeToken('key-1', 'pub-1');
    expect(token).toBe(unsubscribeToken('key-1', 'pub-1'));
    expect(isUnsubscribeToken('key-1', 'pub-1', token)).toBe(true);
    expect(isUnsubscribeToken('key-1', 'pub-2', token)).toBe(false);
    expect(isUnsubscribeToken('key-2', 'pub-1', token)).toBe(false);
    expect(isUnsubscribeToken('key-1', 'pub-1', token.slice(1))).toBe(false);
    expect(isUnsubscribeToken('key-1', 'pub-1', '')).toBe(false);
  });

  it('links sit under PublicBaseUrl with the token as the only query value', () => {
    expect(subscriptionLink('https://alerts.example.org/', 'p_1', 'verify', 'a-b_c')).toBe(
      'https://alerts.example.org/api/notification-subscriptions/p_1/verify?token=a-b_c',
    );
    expect(subscriptionLink('https://example.org/base', 'p', 'unsubscribe', 't+/=')).toBe(
      'https://example.org/base/api/notification-subscriptions/p/unsubscribe?token=t%2B%2F%3D',
    );
  });
});
