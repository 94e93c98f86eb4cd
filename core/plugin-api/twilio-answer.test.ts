import { describe, expect, it } from 'vitest';
import { readTwilioAnswer } from './twilio-answer.ts';

const NOW = new Date('2026-11-26T10:00:00Z');

describe('readTwilioAnswer', () => {
  it.each([
    ['a created call', 201, undefined, '{"sid":"CA1","status":"queued"}', { kind: 'answered', status: 201, sid: 'CA1' }],
    [
      "Twilio's error body",
      400,
      undefined,
      '{"code":21211,"message":"The To number +94… is not valid","status":400}',
      { kind: 'answered', status: 400, code: 21211 },
    ],
    ['a 429 with Retry-After', 429, '3', '{"code":20429}', { kind: 'answered', status: 429, code: 20429, retryAfterSeconds: 3 }],
    ["a proxy's HTML page", 502, undefined, '<html>Bad gateway</html>', { kind: 'answered', status: 502 }],
    ['JSON that is not an object', 500, undefined, 'null', { kind: 'answered', status: 500 }],
    ['an empty sid', 201, undefined, '{"sid":""}', { kind: 'answered', status: 201 }],
  ])('%s', (_name, status, retryAfter, body, expected) => {
    expect(readTwilioAnswer(status, retryAfter, body, NOW)).toEqual(expected);
  });
});
