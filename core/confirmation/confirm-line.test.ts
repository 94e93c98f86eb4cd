import { describe, expect, it } from 'vitest';
import { readStillOutToken, stillOutToken } from '../still-out/index.ts';
import { confirmLine, confirmToken, readConfirmToken } from './confirm-line.ts';

const KEY = 'k'.repeat(43);

describe('the line that asks to confirm an alert', () => {
  it('links to the /confirm page with the token in the fragment, in the subscriber language', () => {
    const line = confirmLine(KEY, 'https://alerts.example.org/', 42, 'en', false);
    expect(line).toBe(`Please confirm you got this alert: https://alerts.example.org/confirm#${confirmToken(KEY, 42)}`);
    expect(confirmLine(KEY, 'https://alerts.example.org', 42, 'ta', false)).toContain('/confirm#');
    expect(confirmLine(KEY, 'https://alerts.example.org', 42, 'ta', false)).not.toMatch(/^Please/);
  });

  it('asks for YES on a target whose subscribers reply', () => {
    expect(confirmLine(KEY, 'https://alerts.example.org', 42, 'en', true)).toBe('Please confirm you got this alert: reply YES.');
  });

  it('a confirm token names its confirmation, and passes for nothing else (nor a still-out token for it)', () => {
    expect(readConfirmToken(KEY, confirmToken(KEY, 42))).toBe(42);
    expect(readConfirmToken(KEY, stillOutToken(KEY, 42))).toBeNull();
    expect(readStillOutToken(KEY, confirmToken(KEY, 42))).toBeNull();
    expect(readConfirmToken('another key', confirmToken(KEY, 42))).toBeNull();
  });
});
