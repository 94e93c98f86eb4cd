import { describe, expect, it } from 'vitest';
import { createSecretScrubber, redactUrl } from './redaction.ts';

describe('secret scrubber', () => {
  const scrub = createSecretScrubber(['tk_AbCdEf123456', 'pa"ss\\word', 'p@ss word', 'ab']);

  it('blanks raw, JSON-escaped and URL-encoded forms', () => {
    expect(scrub('{"msg":"token tk_AbCdEf123456 used"}')).toBe('{"msg":"token [REDACTED] used"}');
    expect(scrub(JSON.stringify({ v: 'pa"ss\\word' }))).toBe('{"v":"[REDACTED]"}');
    expect(scrub('url=https://x/?k=p%40ss%20word')).toBe('url=https://x/?k=[REDACTED]');
  });

  it('leaves very short values alone', () => {
    expect(scrub('about')).toBe('about');
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/notification-subscriptions/abc/verify?token=s3cr3t', '/api/notification-subscriptions/abc/verify?token=[REDACTED]'],
    ['/x?a=1&api_key=k&b=2', '/x?a=1&api_key=[REDACTED]&b=2'],
    ['/health', '/health'],
  ])('%s', (input, expected) => expect(redactUrl(input)).toBe(expected));
});
