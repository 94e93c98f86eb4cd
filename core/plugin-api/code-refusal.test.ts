import { describe, expect, it } from 'vitest';
import { codeRefusal } from './verification-store.ts';

describe('codeRefusal: a code that did not verify is a 400 naming body/code and what to do', () => {
  it.each([
    ['wrong, tries left', { check: 'wrong', triesLeft: 4 }, 'body/code is wrong (4 tries left)'],
    ['wrong, the last try', { check: 'wrong', triesLeft: 1 }, 'body/code is wrong (1 try left)'],
    ['wrong, none left', { check: 'wrong', triesLeft: -1 }, 'body/code is wrong (0 tries left)'],
    ['expired', { check: 'expired', triesLeft: 3 }, 'body/code has expired: call again'],
    ['out of tries', { check: 'exhausted', triesLeft: 0 }, 'body/code: 5 wrong tries; call again'],
    ['none sent yet', { check: 'none', triesLeft: 4 }, 'body/code: wait for it'],
  ] as const)('%s', (_name, verdict, message) => {
    const error = codeRefusal(verdict, 'call again', 'wait for it') as Error & { statusCode?: number };
    expect(error.message).toBe(message);
    expect(error.statusCode).toBe(400);
  });
});
