import { describe, expect, it } from 'vitest';
import { checkCode, hashCode, newVerificationCode } from './verification-code.ts';

const NOW = new Date('2026-11-26T10:00:00Z');
const LATER = new Date('2026-11-26T10:30:00Z');
const stored = (tries = 0, expiresAt = LATER) => ({ codeHash: hashCode(7, '012345'), expiresAt, tries });

describe('checkCode', () => {
  it.each<[string, ReturnType<typeof stored> | undefined, string, string]>([
    ['the right code', stored(), '012345', 'ok'],
    ['the right code, spaces around', stored(), ' 012345 ', 'ok'],
    ['a wrong code', stored(), '012346', 'wrong'],
    ['the fifth try may still be right', stored(4), '012345', 'ok'],
    ['after five tries even the right code is refused', stored(5), '012345', 'exhausted'],
    ['at its expiry', stored(0, NOW), '012345', 'expired'],
    ['no code sent yet', undefined, '012345', 'none'],
  ])('%s', (_name, row, code, expected) => {
    expect(checkCode(row, 7, code, NOW)).toBe(expected);
  });

  it("another subscription's code does not fit", () => {
    expect(checkCode({ ...stored(), codeHash: hashCode(8, '012345') }, 7, '012345', NOW)).toBe('wrong');
  });

  it('draws six digits', () => {
    for (let i = 0; i < 50; i++) expect(newVerificationCode()).toMatch(/^\d{6}$/);
  });
});
