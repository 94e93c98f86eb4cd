import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath, launchChromium } from './chromium.ts';
import { runDemo } from './demo-runner.ts';

/**
 * `npm run demo:screenshot [file]`: starts the demo, waits until the first
 * outage and its restoration are in the push inbox, and saves a picture of
 * the inbox page taken in headless Chromium (default docs/demo-inbox.png).
 * It drives the machine's own Chromium (CHROMIUM_PATH, else Debian's
 * `chromium` package) and never downloads one.
 * The tags show as emoji when an emoji font is installed (Debian:
 * fonts-noto-color-emoji), as in a person's browser.
 */
const target = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../docs/demo-inbox.png', import.meta.url)));
const found = chromiumPath();
if ('missing' in found) {
  process.stderr.write(`${found.missing}\n`);
  process.exit(1);
}

const demo = await runDemo({ via: 'node' });
try {
  process.stdout.write(`demo up; push inbox at ${demo.urls.pushInbox}; waiting for an outage and its restoration…\n`);
  await demo.outageAndRestoration(180_000);
  const browser = await launchChromium(found.path);
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 560 }, deviceScaleFactor: 1 });
    await page.goto(demo.urls.pushInbox);
    await page.locator('.card.was-replaced').first().waitFor();
    await page.locator('.status', { hasText: 'live' }).waitFor();
    mkdirSync(path.dirname(target), { recursive: true });
    await page.screenshot({ path: target, fullPage: true });
    process.stdout.write(`saved ${target}\n`);
  } finally {
    await browser.close();
  }
} finally {
  await demo.stop('SIGINT');
}
