/**
 * The distribution's Chromium (Debian's `chromium`), launched by playwright-core for the
 * report's browser test and its load-time measure: headless, a fresh profile (playwright
 * makes one per launch), and none of the background calls that would try the network.
 * `TAFEL_CHROMIUM` names another binary.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.TAFEL_CHROMIUM ?? '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
