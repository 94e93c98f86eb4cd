import { describe, expect, it } from 'vitest';
import { randomToken } from './random-token.ts';

describe('randomToken', () => {
  it('gives base64url text of the asked number of bytes, never the same twice, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const token = randomToken(16);
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(16);
      seen.add(token);
    }
    expect(seen.size).toBe(2000); // 2,000 × 16 bytes: the 4 KiB pool refilled seven times
    expect(Buffer.from(randomToken(32), 'base64url')).toHaveLength(32);
    expect(Buffer.from(randomToken(10_000), 'base64url')).toHaveLength(10_000);
  });

  it('spreads its bytes evenly (no byte value stuck, as a pool read twice or left zeroed would show)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1000; i += 1) for (const byte of Buffer.from(randomToken(32), 'base64url')) counts[byte]! += 1;
    // 32,000 bytes, 125 expected per value: a zeroed pool would put thousands on 0.
    expect(Math.max(...counts)).toBeLessThan(250);
    expect(Math.min(...counts)).toBeGreaterThan(50);
  });
});
