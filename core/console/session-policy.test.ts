import { describe, expect, it } from 'vitest';
import { sessionEnd } from './session-policy.ts';

const token = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const now = new Date('2026-11-26T10:00:00Z');

describe('sessionEnd: when a console sign-in ends', () => {
  it.each<[string, string | undefined, string]>([
    ['an OIDC sign-in: SessionHours after it', undefined, '2026-11-26T18:00:00.000Z'],
    ['a token that outlives the session: SessionHours', token({ exp: Date.parse('2026-11-27T10:00:00Z') / 1000 }), '2026-11-26T18:00:00.000Z'],
    ['a token that ends sooner: its own end', token({ exp: Date.parse('2026-11-26T11:30:00Z') / 1000 }), '2026-11-26T11:30:00.000Z'],
    ['a token without exp: SessionHours', token({ sub: 'x' }), '2026-11-26T18:00:00.000Z'],
    ['an unreadable token: SessionHours', 'not.a-token', '2026-11-26T18:00:00.000Z'],
  ])('%s', (_case, adminToken, expected) => {
    expect(new Date(sessionEnd(now, 8, adminToken)).toISOString()).toBe(expected);
  });
});
