import { describe, expect, it } from 'vitest';
import { takesEvent } from './confirm-only.ts';

describe('takesEvent: a notice to confirm goes only to those who confirm', () => {
  it.each([
    ['an alert, to anyone', {}, {}, true],
    ['an alert, to one who confirms', {}, { confirm: true }, true],
    ['a notice, to one who confirms', { confirmBy: '2026-12-05T03:30:00.000Z' }, { confirm: true }, true],
    ['a notice, to one who does not', { confirmBy: '2026-12-05T03:30:00.000Z' }, { language: 'si' }, false],
    ['a notice, to a subscription with no preferences (a system one)', { confirmBy: '2026-12-05T03:30:00.000Z' }, null, false],
  ] as const)('%s', (_name, event, preferences, expected) => {
    expect(takesEvent(event, preferences)).toBe(expected);
  });
});
