import { describe, expect, it } from 'vitest';
import { unsubscribeConfirmPage, unsubscribedPage, verifiedPage } from './link-pages.ts';

describe('link pages', () => {
  it.each([
    ['verified', verifiedPage],
    ['unsubscribed', unsubscribedPage],
    ['unsubscribe?', (name: string) => unsubscribeConfirmPage(name, true, '/x')],
  ])('the %s page shows a name escaped, without bidirectional overrides or control characters', (_name, page) => {
    const html = page('Home\u202e<b>gpj.exe\u0000\u2067');
    expect(html).toContain('Home&lt;b&gt;gpj.exe');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000]/);
  });
});
