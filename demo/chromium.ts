import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags that let Debian's Chromium run headless here without reaching for other hosts. */
const CHROMIUM_ARGS = [
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
 * The machine's own Chromium (CHROMIUM_PATH, else Debian's `chromium`
 * package), never a downloaded one: its path, or why there is none. Used by
 * the screenshot scripts and the browser tests.
 */
export function chromiumPath(): { path: string } | { missing: string } {
  const configured = process.env.CHROMIUM_PATH;
  const found = configured ? (existsSync(configured) ? configured : null) : (CANDIDATES.find((candidate) => existsSync(candidate)) ?? null);
  if (found) return { path: found };
  return {
    missing: configured
      ? `CHROMIUM_PATH=${configured} does not exist`
      : `no Chromium at ${CANDIDATES.join(' or ')} (apt-get install chromium, or set CHROMIUM_PATH)`,
  };
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
