import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags that let Debian's Chromium run headless here without reaching for other hosts. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * The Chromium the browser tests drive (CHROMIUM_PATH, else Debian's
 * package), never a downloaded one. Missing: null, so the tests skip with a
 * printed reason; with REQUIRE_BROWSER=1 (CI) a missing browser is an error.
 */
export function findChromium(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  const found = configured ? (existsSync(configured) ? configured : null) : (CANDIDATES.find((candidate) => existsSync(candidate)) ?? null);
  if (found) return found;
  const reason = configured ? `CHROMIUM_PATH=${configured} does not exist` : `no Chromium at ${CANDIDATES.join(' or ')} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.warn(`Skipping the browser tests: ${reason}.`);
  return null;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
