import { describe, expect, it } from 'vitest';
import { linkPages } from './link-pages.ts';

const { unsubscribeConfirm, unsubscribed, verified } = linkPages('en');

describe('link pages', () => {
  it.each([
    ['verified', verified],
    ['unsubscribed', unsubscribed],
    ['unsubscribe?', (name: string) => unsubscribeConfirm(name, true, '/x')],
  ])('the %s page shows a name escaped, without bidirectional overrides or control characters', (_name, page) => {
    const html = page('Home\u202e<b>gpj.exe\u0000\u2067');
    expect(html).toContain('Home&lt;b&gt;gpj.exe');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000]/);
  });

  it('speaks the language given, its lang attribute and the link home too', () => {
    const html = linkPages('ta').verified('Kandy home');
    expect(html).toContain('<html lang="ta">');
    expect(html).toMatch(/<h1>[\u0B80-\u0BFF]/);
    expect(html).toContain('“Kandy home”');
    expect(html).toMatch(/<a href="\/subscribe">[\u0B80-\u0BFF]/);
    expect(linkPages(undefined).verified('x')).toContain('<html lang="en">');
  });
});
