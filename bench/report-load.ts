/**
 * How big a report page is and how long Chromium takes to show it: the page is loaded
 * `--loads` times in a fresh tab each (after one warm-up load), and the median time from
 * navigation to the end of the load event, and to the first contentful paint, printed.
 *
 *   npm run build && node dist/bench/report-load.js results/report-viersche.html [--loads 15]
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { quantile } from '../src/harness/stats/stats.js';
import { CHROMIUM, hasChromium, launchChromium } from './chromium.js';

const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--loads');
const at = process.argv.indexOf('--loads');
const loads = at >= 0 ? Number(process.argv[at + 1]) : 15;
if (files.length === 0 || !(loads > 0)) {
  console.error('usage: node dist/bench/report-load.js PAGE.html... [--loads N]');
  process.exit(2);
}
if (!hasChromium) {
  console.error(`report-load: no Chromium at ${CHROMIUM} (apt-get install chromium, or set TAFEL_CHROMIUM)`);
  process.exit(2);
}

const TIMES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return { load: nav.loadEventEnd - nav.startTime, paint: paint ? paint.startTime : NaN };
})()`;

const browser = await launchChromium();
try {
  for (const file of files) {
    const url = pathToFileURL(resolve(file)).href;
    const load: number[] = [];
    const paint: number[] = [];
    for (let i = 0; i <= loads; i++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(url, { waitUntil: 'load' });
      const t = await page.evaluate<{ load: number; paint: number }>(TIMES);
      await page.close();
      if (i === 0) continue; // warm-up
      load.push(t.load);
      paint.push(t.paint);
    }
    const median = (xs: number[]) =>
      quantile(
        [...xs].sort((a, b) => a - b),
        0.5,
      ).toFixed(0);
    const kb = Math.round(statSync(file).size / 1024);
    console.log(
      `${file}: ${kb} KB; median of ${loads} loads: load ${median(load)} ms, first contentful paint ${median(paint)} ms`,
    );
  }
} finally {
  await browser.close();
}
