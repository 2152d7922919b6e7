/**
 * An experiment's page is drawn from the figures its plan declares (src/report/declared.ts),
 * with no knowledge of the experiment: each kind renders its rows (titles, values, the
 * words of an estimate without an interval), `where` and `facet` choose and split them,
 * and a figure that names a column its table lacks, or a CSV with no plan beside it, is
 * one line. The built-ins' figures name only columns their committed CSVs have.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { isTafelError } from '../src/core/errors.js';
import { checkFigure, columnsOf, matches, type DeclaredFigure } from '../src/report/declared.js';
import { readInputs } from '../src/report/inputs.js';
import { reportHtml } from '../src/report/page.js';
import { FIGURES } from '../experiments/figures.js';
import { EXPERIMENTS } from '../experiments/index.js';
import { ROOT, expectUserError, read, tafel, tmpDir } from './cli-helpers.js';

const FIXTURES = join(ROOT, 'test/fixtures/report');

/** The page of the fixture `name`.csv, drawn from its plan beside it. */
function page(name: string): string {
  const parts = readInputs([join(FIXTURES, `${name}.csv`)]);
  expect(parts.map((p) => p.kind)).toEqual(['declared']);
  return reportHtml(parts, { made: new Date(0) });
}

/** The HTML of the figure titled `title`. */
function figure(html: string, title: string): string {
  const at = html.indexOf(`<h3>${title}</h3>`);
  expect(at, title).toBeGreaterThan(0);
  // Plot wraps a plot with a legend in a <figure> of its own: the page's figure ends after its table.
  const end = html.indexOf('</table>', at);
  return html.slice(at, end);
}

/** The rows of a figure's table of numbers, as cell texts. */
function cells(html: string): string[][] {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>')),
  );
}

function refused(paths: string[], pattern: RegExp): void {
  try {
    readInputs(paths);
  } catch (e) {
    expect(isTafelError(e), String(e)).toBe(true);
    expect((e as Error).message).toMatch(pattern);
    expect((e as Error).message).not.toContain('\n');
    return;
  }
  throw new Error(`read ${paths.join()}`);
}

describe('a declared figure renders its rows', () => {
  it('estimates: a forest plot per figure, its title, note, values and the words of a missing interval', () => {
    const html = page('estimates');
    expect(html).toContain('<h1>Does alpha score more than beta?</h1>');
    expect(html).toContain('<code>tafel experiment estimates.plan.json</code>');
    const score = figure(html, 'Score per deal');
    expect(score).toContain("Each bot's score, with its 95% interval.");
    expect(cells(score)).toEqual([
      ['alpha', '40', '1.25', '0.50', '2.00'],
      ['beta', '40', '-0.75', '-1.50', '0.00'],
      ['gamma', '1', '0.30', '1 group; no interval', ''],
    ]);
    expect(score).toContain('score per deal →');
    expect(score).toContain('<svg');
    // A rate's one bound is its Wilson bound, in percent.
    const won = figure(html, 'Share of deals won');
    expect(cells(won)).toEqual([
      ['alpha', '40', '100.00', '40 of 40 groups; >= 91.24, 95% Wilson bound', ''],
      ['beta', '40', '0.00', '0 of 40 groups; <= 8.76, 95% Wilson bound', ''],
    ]);
    expect(won).toContain('<th scope="col" class="num">mean (%)</th>');
  });

  it('series: a line and band per series over x, on a symmetric log axis', () => {
    const html = page('series');
    const pot = figure(html, 'The pot after each hand');
    expect(pot).toContain('A line per bot, its band the 95% interval.');
    expect(pot).toContain('pot (stakes) (symmetric log scale)');
    expect(pot.match(/<path/g)?.length).toBeGreaterThanOrEqual(4);
    expect(cells(pot)[2]).toEqual(['alpha', '3', '20', '16.0', '14.0', '18.0']);
    expect(cells(pot)).toHaveLength(6);
  });

  it("table: the rows as written, from the plan's first table and another", () => {
    const html = page('table');
    // No command in the plan: running the plan file again is the command.
    expect(html).toContain(`<code>tafel experiment ${join(FIXTURES, 'table.plan.json')}</code>`);
    expect(cells(figure(html, 'Points per seat-deal'))).toEqual([
      ['heuristic-random', 'heuristic', '200', '81.5'],
      ['heuristic-random', 'random', '200', '38.5'],
    ]);
    expect(cells(figure(html, 'Deals per run'))).toEqual([['heuristic-random', '100']]);
    // The plan's other table given too: still one part.
    expect(readInputs([join(FIXTURES, 'table.csv'), join(FIXTURES, 'table-deals.csv')])).toHaveLength(1);
    expect(readInputs([join(FIXTURES, 'table-deals.csv')])[0].identity.title).toBe('Which bot takes more points?');
  });

  it('where keeps the rows it names, facet makes a panel per value in the order of the rows', () => {
    const html = figure(page('facets'), 'Deals with a march');
    expect(cells(html).map((r) => r.slice(0, 2))).toEqual([
      ['1', 'random'],
      ['2', 'random'],
      ['1', 'heuristic'],
      ['2', 'heuristic'],
    ]);
    expect([...html.matchAll(/<p class="panel-title">(.*?)<\/p>/g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(html).not.toContain('4000');
  });

  it('a value ending in * matches by prefix', () => {
    expect(matches('deal_vs_heuristic:won', 'deal_vs_heuristic:*')).toBe(true);
    expect(matches('deal_vs_heuristic', 'deal_vs_heuristic:*')).toBe(false);
    expect(matches('b', ['a', 'b'])).toBe(true);
    expect(matches('ab', 'a')).toBe(false);
  });
});

describe('what a report cannot draw is one line', () => {
  it('a figure that names a column its table lacks names the figure and the column', () => {
    const dir = tmpDir();
    copyFileSync(join(FIXTURES, 'estimates.csv'), join(dir, 'estimates.csv'));
    const plan = JSON.parse(read(join(FIXTURES, 'estimates.plan.json'))) as { figures: DeclaredFigure[] };
    writeFileSync(
      join(dir, 'estimates.plan.json'),
      JSON.stringify({ ...plan, figures: [{ ...plan.figures[0], label: 'player' }] }),
    );
    refused(
      [join(dir, 'estimates.csv')],
      /figure 'Score per deal': no column 'player' in .*estimates\.csv \(bot, quantity, n, mean, ci95_low, ci95_high\)$/,
    );
    writeFileSync(
      join(dir, 'estimates.plan.json'),
      JSON.stringify({ ...plan, figures: [{ ...plan.figures[0], lable: 'bot' }] }),
    );
    refused([join(dir, 'estimates.csv')], /figures\[0\]\.lable: not a field of a figure of kind estimates/);
    const r = tafel(['report', 'estimates.csv', '--out', 'e.html'], dir);
    expectUserError(r, /^tafel: report: estimates\.plan\.json: figures\[0\]\.lable: not a field/);
  });

  it('a CSV with no plan beside it says the plan is missing and what writes it', () => {
    const dir = tmpDir();
    copyFileSync(join(ROOT, 'results/ladder-viersche.csv'), join(dir, 'ladder-viersche.csv'));
    const r = tafel(['report', 'ladder-viersche.csv', '--out', 'l.html'], dir);
    expectUserError(
      r,
      /^tafel: report: ladder-viersche\.csv is none of what a report reads: .* \(ladder-viersche\.plan\.json is missing: tafel experiment NAME --plan-only writes it\)$/,
    );
  });
});

/** The committed results of each built-in experiment. */
const RESULTS: Readonly<Record<string, RegExp>> = {
  ladder: /^ladder-.+\.csv$/,
  versus: /^versus-.+\.csv$/,
  'hindersche-marches': /^hindersche-marches\.csv$/,
  'anderle-pot': /^anderle-pot\.csv$/,
  'pimc-properties': /^pimc-properties\.csv$/,
  tune: /^tune-.+\.csv$/,
};

describe("the built-ins' figures", () => {
  it('every built-in declares figures, and its plan carries them', () => {
    // A user's plan (`plan`) declares its own.
    const builtins = EXPERIMENTS.filter((e) => e.name !== 'plan');
    expect(Object.keys(FIGURES).sort()).toEqual(builtins.map((e) => e.name).sort());
    const values: Record<string, Record<string, string>> = {
      ladder: { game: 'viersche' },
      versus: { game: 'viersche', champion: 'pimc', bots: 'heuristic' },
      tune: { game: 'viersche' },
    };
    for (const e of builtins) {
      expect(FIGURES[e.name].length, e.name).toBeGreaterThan(0);
      FIGURES[e.name].forEach((f, i) =>
        checkFigure(JSON.parse(JSON.stringify(f)), `${e.name} figures[${i}]`, (field, why) => {
          throw new Error(`${field}: ${why}`);
        }),
      );
      expect(e.plan(values[e.name] ?? {}).figures, e.name).toEqual(FIGURES[e.name]);
    }
  });

  it.each(Object.entries(RESULTS))('%s: name only columns its CSVs have, and each draws rows', (name, files) => {
    const csvs = readdirSync(join(ROOT, 'results')).filter((f) => files.test(f));
    expect(csvs.length).toBeGreaterThan(0);
    const drawn = new Set<string>();
    for (const csv of csvs) {
      const rows = parse<Record<string, string>>(read(join(ROOT, 'results', csv)), { columns: true });
      const columns = Object.keys(rows[0]);
      for (const f of FIGURES[name]) {
        const has = (c: string) => columns.includes(c);
        expect(
          columnsOf(f, has).filter((c) => !has(c)),
          `${csv}: ${f.title}`,
        ).toEqual([]);
        const where = Object.entries(f.where ?? {});
        if (rows.some((r) => where.every(([c, v]) => matches(r[c], v)))) drawn.add(f.title);
      }
    }
    // A figure whose `where` matches no committed row would be a misspelt value.
    expect(FIGURES[name].map((f) => f.title).filter((t) => !drawn.has(t))).toEqual([]);
  });
});
