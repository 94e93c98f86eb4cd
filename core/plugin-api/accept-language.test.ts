import { describe, expect, it } from 'vitest';
import { localeOfAcceptLanguage } from './messages.ts';

describe("a browser's Accept-Language → a language the service speaks", () => {
  it.each<[string, string | undefined, string]>([
    ['its first language offered', 'fr-FR,ta-IN;q=0.9,si;q=0.8', 'ta'],
    ['by weight, not by place', 'en;q=0.5,si-LK', 'si'],
    ['a whole tag offered before its language', 'en-XA,en;q=0.9', 'en-XA'],
    ['English when none is offered', 'fr,de;q=0.5', 'en'],
    ['English without the header', undefined, 'en'],
    ['a language refused (q=0) is skipped', 'ta;q=0,si;q=0.1', 'si'],
    ['nonsense is no language', ';;,q=x,,', 'en'],
  ])('%s', (_case, header, expected) => {
    expect(localeOfAcceptLanguage(header)).toBe(expected);
  });
});
