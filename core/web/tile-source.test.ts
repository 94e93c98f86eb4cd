import { describe, expect, it } from 'vitest';
import { pageHeadersWithTiles, PAGE_CSP, tileSource } from './page-assets.ts';

describe('tileSource: where the maps may load tiles from', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
    ['https://{s}.tile.example.org/{z}/{x}/{y}.png', 'https://*.tile.example.org'],
    ['http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png?key=k', 'http://127.0.0.1:8080'],
    ['https://tile-{s}.example.org/{z}/{x}/{y}.png', null],
    ['ftp://tiles.example.org/{z}/{x}/{y}.png', null],
    ['https://tiles.example.org', null],
  ])('%s → %s', (url, source) => {
    expect(tileSource(url)).toBe(source);
  });

  it("lets the map pages load images from the tiles' host and nothing else from it", () => {
    const csp = pageHeadersWithTiles('https://{s}.tile.example.org/{z}/{x}/{y}.png')['content-security-policy'];
    expect(csp).toContain("img-src 'self' blob: data: https://*.tile.example.org;");
    expect(csp.replace("img-src 'self' blob: data: https://*.tile.example.org", "img-src 'self' blob:")).toBe(PAGE_CSP);
    expect(pageHeadersWithTiles(null)['content-security-policy']).toBe(PAGE_CSP);
  });
});
