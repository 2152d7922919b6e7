/**
 * Report pages in a real browser: the distribution's Chromium, driven by
 * playwright-core. Each page must load without a console error and without a single
 * request beyond its own file, draw every figure (an SVG per panel, with the marks of
 * its kind), show every table of numbers whole at 1400 px, and open with the identity
 * of what it shows. A full-page screenshot of each goes to
 * .test-results/report-<page>.png, to look at.
 *
 * Without Chromium (`.ci/run` installs Debian's `chromium`; TAFEL_CHROMIUM names another)
 * the test is skipped, and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../bench/chromium.js';
import { ROOT, tafel, tmpDir } from './cli-helpers.js';

if (!hasChromium) {
  console.log(`report-browser: skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set TAFEL_CHROMIUM)`);
}

/** The marks each kind of figure draws in every panel; `a|b` is either. */
const MARKS: Record<string, string[]> = {
  // An estimate without an interval has its words beside the dot instead of a line.
  means: ['dot', 'rule|text'],
  pairs: ['dot', 'rule|text'],
  rating: ['rule', 'dot|arrow'],
  running: ['area', 'line', 'dot'],
  distribution: ['rect', 'rule'],
  sprt: ['rule', 'text', 'dot'],
  // An experiment's declared figures (src/report/declared.ts); a mean alone (a time) is a dot, a table no plot.
  estimates: ['dot'],
  series: ['line', 'dot'],
  table: [],
  'tune-path': ['area', 'line', 'dot', 'rule'],
  'tune-results': ['dot', 'area', 'line'],
  'tune-verify': ['dot', 'rule'],
};

/** What the page shows, read in the browser (a script, as the tests are not compiled with the DOM's types). */
interface Seen {
  facts: string[];
  /** The figures whose table of numbers is wider than its box (a column hidden behind a scroll bar). */
  overflowing: string[];
  command: string | null;
  figures: { kind: string; rows: number; panels: { width: number; height: number; marks: Record<string, number> }[] }[];
}

const SEE = `(() => {
  const shapes = 'circle, line, path, rect, text';
  return {
    facts: [...document.querySelectorAll('.identity dt')].map((dt) => dt.textContent),
    command: document.querySelector('.identity pre.command')?.textContent ?? null,
    overflowing: [...document.querySelectorAll('.numbers')]
      .filter((n) => n.scrollWidth > n.clientWidth)
      .map((n) => n.closest('figure').dataset.figure),
    figures: [...document.querySelectorAll('figure[data-figure]')].map((f) => ({
      kind: f.dataset.figure,
      rows: f.querySelectorAll('table tbody tr').length,
      panels: [...f.querySelectorAll('.panel')].map((p) => {
        // The plot's SVG: the largest (a colour legend adds small ones for its swatches).
        const area = (e) => e.getBoundingClientRect().width * e.getBoundingClientRect().height;
        const svg = [...p.querySelectorAll('svg')].sort((a, b) => area(b) - area(a))[0];
        const marks = {};
        for (const g of svg ? svg.querySelectorAll(':scope > g[aria-label]') : []) {
          const k = g.getAttribute('aria-label');
          marks[k] = (marks[k] ?? 0) + g.querySelectorAll(shapes).length + (g.matches(shapes) ? 1 : 0);
        }
        const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
        return { width: box.width, height: box.height, marks };
      }),
    })),
  };
})()`;

/** Each page, and the figures it has at least. */
const PAGES = { robin: 6, sprt: 7, matches: 11, summary: 4, experiments: 44, tune: 4, 'tune-csv': 3 } as const;

describe.skipIf(!hasChromium)('report pages in Chromium', () => {
  const dir = tmpDir();
  const shots = join(ROOT, '.test-results');
  let browser: Browser;

  beforeAll(async () => {
    const runs = [
      'viersche --bots heuristic,montecarlo:worlds=4,random --deals 30 --deal-csv robin.deals.csv --report robin.html',
      'hindersche --bots heuristic,random --deals 300 --sprt elo0=0,elo1=100 --out sprt.csv --report sprt.html',
      'hindersi-jass --bots heuristic,heuristic:danger=0,random --matches 3 --report matches.html',
    ];
    for (const run of runs) {
      const r = tafel(['run', '--game', ...run.split(' '), '--workers', '2'], dir);
      expect(r.status, r.stderr).toBe(0);
    }
    // The experiments' committed results, each with the plan its experiment writes beside it.
    const plans = ['ladder --game viersche', 'ladder --game hindersche', 'ladder --game hindersi-jass']
      .concat(['ladder --game vier-anderle', 'hindersche-marches', 'anderle-pot'])
      .map((e) => e.split(' '));
    const results: string[] = [];
    for (const [name, ...flags] of plans) {
      const stem = flags.length ? `${name}-${flags[1]}` : name;
      copyFileSync(join(ROOT, 'results', `${stem}.csv`), join(dir, `${stem}.csv`));
      const r = tafel(['experiment', name, ...flags, '--plan-only', '--out-dir', '.'], dir);
      expect(r.status, r.stderr).toBe(0);
      results.push(`${stem}.csv`);
    }
    for (const [out, inputs] of [
      ['summary.html', ['sprt.csv']],
      ['experiments.html', results],
    ] as const) {
      const r = tafel(['report', ...inputs, '--out', out], dir);
      expect(r.status, r.stderr).toBe(0);
    }
    // A tuning with an SPRT verification, and the page of its CSV alone (no bounds, no walk).
    const peak = join(ROOT, 'test/fixtures/peak-bot.js');
    const t = tafel(
      [
        'tune',
        '--game',
        'viersche',
        '--bot',
        `${peak}:x=2`,
        '--tune',
        'x:c=1,n',
        '--iterations',
        '40',
        '--verify',
        '300',
        '--sprt',
        'mean0=0,mean1=5',
        '--out',
        'tune.csv',
        '--report',
        'tune.html',
        '--workers',
        '2',
      ],
      dir,
    );
    expect(t.status, t.stderr).toBe(0);
    mkdirSync(join(dir, 'alone'));
    copyFileSync(join(dir, 'tune.csv'), join(dir, 'alone', 'tune.csv'));
    const c = tafel(['report', 'alone/tune.csv', '--out', 'tune-csv.html'], dir);
    expect(c.status, c.stderr).toBe(0);
    mkdirSync(shots, { recursive: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each(Object.keys(PAGES) as (keyof typeof PAGES)[])(
    '%s: loads offline, without errors, and draws every figure',
    async (name) => {
      const url = pathToFileURL(join(dir, `${name}.html`)).href;
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await context.route('**/*', (route) => {
        requests.push(route.request().url());
        return route.request().url() === url ? route.continue() : route.abort();
      });
      await page.goto(url, { waitUntil: 'load' });
      const seen = await page.evaluate<Seen>(SEE);
      await page.screenshot({ path: join(shots, `report-${name}.png`), fullPage: true });
      await context.close();

      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      // At 1400 px every table of numbers shows all its columns (Elo's LOS, the marches' high bound).
      expect(seen.overflowing).toEqual([]);
      if (name === 'tune')
        expect(seen.facts).toEqual(
          expect.arrayContaining(['game', 'start', 'tuned parameters', 'seed', 'size', 'verification', 'tuned']),
        );
      else if (name === 'experiments' || name === 'tune-csv') expect(seen.facts.length).toBeGreaterThan(0);
      else
        expect(seen.facts).toEqual(
          expect.arrayContaining(['game', 'players', 'rules', 'bots', 'seed', 'size', 'time']),
        );
      if (name !== 'summary' && name !== 'tune-csv') expect(seen.command).toMatch(/^(tafel|node|taskset)/);
      expect(seen.figures.length).toBe(PAGES[name]);
      // The walk, where the journal gave it (a summary CSV holds only its end).
      if (name === 'sprt') expect(seen.figures.find((f) => f.kind === 'sprt')?.panels[0].marks.line).toBeGreaterThan(0);
      for (const f of seen.figures) {
        const wanted = MARKS[f.kind];
        expect(wanted, `figure kind ${f.kind}`).toBeDefined();
        expect(f.rows, `${f.kind}: its table`).toBeGreaterThan(0);
        if (f.kind !== 'table') expect(f.panels.length, `${f.kind}: panels`).toBeGreaterThan(0);
        for (const p of f.panels) {
          expect(p.width, `${f.kind}: drawn`).toBeGreaterThan(200);
          expect(p.height, `${f.kind}: drawn`).toBeGreaterThan(40);
          for (const mark of wanted) {
            const drawn = mark.split('|').some((m) => (p.marks[m] ?? 0) > 0);
            expect(drawn, `${f.kind}: ${mark} in ${JSON.stringify(p.marks)}`).toBe(true);
          }
        }
      }
    },
  );
});
