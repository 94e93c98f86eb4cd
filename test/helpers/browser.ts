import { chromiumPath } from '../../demo/chromium.ts';

export { launchChromium } from '../../demo/chromium.ts';

/**
 * The Chromium the browser tests drive (see demo/chromium.ts), never a
 * downloaded one. Missing: null, so the tests skip with a printed reason;
 * with REQUIRE_BROWSER=1 (CI) a missing browser is an error.
 */
export function findChromium(): string | null {
  const found = chromiumPath();
  if ('path' in found) return found.path;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${found.missing}`);
  console.warn(`Skipping the browser tests: ${found.missing}.`);
  return null;
}
