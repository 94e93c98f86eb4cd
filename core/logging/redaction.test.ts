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
    ['/x?tok%65n=s3cr3t', '/x?tok%65n=[REDACTED]'],
    ['/x?%74%6F%6B%65%6E=s3cr3t&b=2', '/x?%74%6F%6B%65%6E=[REDACTED]&b=2'],
    ['/x?TOKEN=s3cr3t', '/x?TOKEN=[REDACTED]'],
    ['/x?api+key=1&api%5Fkey=k', '/x?api+key=1&api%5Fkey=[REDACTED]'],
    ['/x?token', '/x?token=[REDACTED]'],
    ['/x?bad=%E0%A4%A&token=t#frag', '/x?bad=%E0%A4%A&token=[REDACTED]#frag'],
    ['/x?tokens=fine', '/x?tokens=fine'],
  ])('%s', (input, expected) => expect(redactUrl(input)).toBe(expected));
});
