/**
 * `tafel report` and `run --report`: what the page is drawn from is the run's own
 * numbers (the summary's means, pairs, Elo and SPRT; the running mean ends at the
 * paired estimate; the SPRT walk ends where the test decided), the same from every
 * input that holds them (live run, journal, summary CSV, per-deal CSV), the same for
 * any number of workers; its size does not grow with the run; bad inputs are one line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGame } from '../src/games/index.js';
import { isTafelError } from '../src/core/errors.js';
import { Sprt, parseSprt } from '../src/harness/stats/sprt.js';
import { GroupTally } from '../src/harness/table/table.js';
import { RunTally } from '../src/harness/stats/tally.js';
import { commandOf } from '../src/harness/run/spec.js';
import { readJournal } from '../src/harness/run/journal.js';
import type { RunData, SectionData } from '../src/report/data.js';
import { dealCsvRunData } from '../src/report/deal-input.js';
import { RunDigest } from '../src/report/digest.js';
import { ValueCounts, binned } from '../src/report/histogram.js';
import { readInputs } from '../src/report/inputs.js';
import { journalRunData, readJournals } from '../src/report/journal-input.js';
import { reportHtml } from '../src/report/page.js';
import { summaryRunData } from '../src/report/summary-input.js';
import { FIGURES } from '../experiments/figures.js';
import { ROOT, expectUserError, read, tafel, tmpDir } from './cli-helpers.js';

const viersche = findGame('viersche')!;

/** A page without what tells when and from where it was made. */
function timeless(html: string): string {
  return html
    .replace(/<p class="made">[^<]*<\/p>/, '')
    .replace(/<dd data-fact="time">[^<]*<\/dd>/g, '')
    .replace(/<dt>read from<\/dt><dd data-fact="sources">.*?<\/dd>/g, '');
}

describe('report data', () => {
  it('bins few distinct values one bar each, and many into round widths on one grid for all bots', () => {
    const a = new ValueCounts();
    const b = new ValueCounts();
    [0, 1, 1, 2, 5].forEach((x) => a.add(x));
    b.add(3, 4);
    const d = binned('m', 'seat-deal', [
      { bot: 'a', values: a },
      { bot: 'b', values: b },
    ]);
    expect(d.discrete).toBe(true);
    expect(d.bins.filter((x) => x.bot === 'a')).toEqual([
      { bot: 'a', x0: -0.5, x1: 0.5, count: 1 },
      { bot: 'a', x0: 0.5, x1: 1.5, count: 2 },
      { bot: 'a', x0: 1.5, x1: 2.5, count: 1 },
      { bot: 'a', x0: 4.5, x1: 5.5, count: 1 },
    ]);
    expect(d.totals).toEqual([
      { bot: 'a', count: 5 },
      { bot: 'b', count: 4 },
    ]);
    const halves = new ValueCounts();
    [0.5, 1, 2.5].forEach((x) => halves.add(x));
    expect(binned('m', 'group', [{ bot: 'a', values: halves }]).bins.map((x) => x.x0)).toEqual([0.25, 0.75, 2.25]);
    const wide = new ValueCounts();
    for (let x = 0; x <= 157; x++) wide.add(x);
    const w = binned('points', 'seat-deal', [{ bot: 'a', values: wide }]);
    expect(w.discrete).toBe(false);
    expect(w.bins).toHaveLength(32);
    expect(w.bins.every((x) => x.x1 - x.x0 === 5 && Number.isInteger(x.x0))).toBe(true);
    expect(w.bins.reduce((s, x) => s + x.count, 0)).toBe(158);
    const one = new ValueCounts();
    one.add(7, 3);
    expect(binned('m', 'group', [{ bot: 'a', values: one }]).bins).toEqual([{ bot: 'a', x0: 6.5, x1: 7.5, count: 3 }]);
  });

  it('keeps a running mean that ends at the paired estimate, and a bounded number of points however long the run', () => {
    const digest = new RunDigest(viersche, 2, 'deal', 'elo0=0, elo1=5, alpha=0.05, beta=0.05');
    const tally = new RunTally(viersche.dealMetrics, null, 2);
    const sprt = new Sprt(parseSprt('elo0=0,elo1=5'));
    const g = new GroupTally(2, 3, 0);
    let x = 12345;
    const groups = 200_000;
    for (let i = 0; i < groups; i++) {
      g.clear();
      x = (x * 1103515245 + 12345) % 2 ** 31;
      g.dealSums.set([(x % 157) + 10, x % 2, 0, 157 - (x % 157), 1 - (x % 2), 0]);
      g.dealCounts.set([2, 2]);
      g.deals = 2;
      tally.add(g);
      digest.add(g);
      if (!sprt.decision) sprt.add(g.dealSums[0] / 2 - g.dealSums[3] / 2);
    }
    const points = digest.deal.running[0].points();
    const end = points[points.length - 1];
    const pair = tally.deal.pairRows().find((r) => r.metric === 'points')!.estimate;
    expect(end).toEqual({ groups, mean: pair.mean, low: pair.low, high: pair.high });
    expect(points.length).toBeLessThan(400);
    expect(points.slice(0, 29).map((p) => p.groups)).toEqual(Array.from({ length: 29 }, (_, i) => i + 2));
    const walk = digest.walkPoints();
    expect(walk[walk.length - 1]).toEqual({ groups: sprt.n, llr: sprt.llr });
    expect(digest.sprt!.decision).toBe(sprt.decision);
    expect(walk.length).toBeLessThanOrEqual(2000);
    // Distributions count values, not groups.
    expect(digest.deal.values[0][0].counts.size).toBeLessThanOrEqual(157);
    expect(digest.deal.values[0][0].total).toBe(groups);
  });
});

describe('report inputs', () => {
  const dir = tmpDir();
  const at = (f: string) => join(dir, f);
  const runs = {
    robin: ['--game', 'viersche', '--bots', 'heuristic,montecarlo:worlds=4,random', '--deals', '30', '--seed', 'rep'],
    sprt: ['--game', 'hindersche', '--bots', 'heuristic,random', '--deals', '300', '--sprt', 'elo0=0,elo1=100'],
  };
  let robin: RunData;

  beforeAll(() => {
    const r = tafel(
      ['run', ...runs.robin, '--out', 'a.csv', '--deal-csv', 'a.deals.csv', '--report', 'a.html', '--workers', '2'],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/report written to a\.html \(\d+ KB\)/);
    for (const w of [1, 2]) {
      const s = tafel(
        ['run', ...runs.sprt, '--out', `b${w}.csv`, '--report', `b${w}.html`, '--workers', String(w)],
        dir,
      );
      expect(s.status, s.stderr).toBe(0);
    }
    robin = journalRunData(readJournals([at('a.journal.jsonl')])[0]);
  });

  it('draws the page of run --report from the journal too, the same for 1 and 2 workers', () => {
    const r = tafel(['report', 'a.journal.jsonl', '--out', 'j.html'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(timeless(read(at('j.html')))).toBe(timeless(read(at('a.html'))));
    expect(timeless(read(at('b2.html'))).replace(/b2\./g, 'b1.')).toBe(timeless(read(at('b1.html'))));
  });

  it("states the run's identity and the command that plays it again", () => {
    const spec = readJournal(at('a.journal.jsonl')).spec;
    expect(robin.identity.command).toBe(commandOf(spec));
    const facts = Object.fromEntries(robin.identity.facts);
    expect(facts.game).toMatch(/^viersche: Viersche/);
    expect(facts.bots).toContain('montecarlo:worlds=4 = montecarlo:worlds=4:playouts=1');
    expect(facts.seed).toBe('rep');
    expect(facts.size).toBe('30 duplicate deals (groups) × 6 seat rotations, 180 deals played');
    expect(facts.tafel).toBe(spec.tafel);
    const html = read(at('a.html'));
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');
    // Nothing that could fetch: no script, link, image or URL (a clip path's url(#id) is within the page).
    expect(/<script|<link|<img|https?:\/\/|url\((?!#)/i.exec(html)?.[0] ?? null).toBeNull();
    expect(html).toContain(`<code>${commandOf(spec)}</code>`);
  });

  it("shows the summary's numbers, and reads them back from the summary CSV alone", () => {
    const summary = summaryRunData(at('a.csv'), read(at('a.csv')));
    const six = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(6)) : x);
    const numbers = (s: SectionData) => ({
      means: s.means.map((m) => [
        m.bot,
        m.metric,
        m.estimate.n,
        six(m.estimate.mean),
        six(m.estimate.low),
        six(m.estimate.high),
      ]),
      rates: s.means.map((m) => m.rate && [six(m.rate.mean), six(m.rate.low), six(m.rate.high)]),
      pairs: s.pairs.map((p) => [
        p.bot,
        p.opponent,
        p.metric,
        six(p.estimate.mean),
        six(p.estimate.low),
        six(p.estimate.high),
      ]),
      rating:
        s.rating?.kind === 'bradley-terry' && s.rating.rows.map((r) => [r.bot, six(r.elo), six(r.low), six(r.high)]),
    });
    expect(numbers(summary.sections[0])).toEqual(numbers(robin.sections[0]));
    expect(summary.sections[0].rating?.kind).toBe('bradley-terry');
    expect(summary.identity.command).toBeNull();
    expect(summary.notes.join(' ')).toMatch(/journal/);
  });

  it('rebuilds the deal section exactly from the per-deal CSV alone, and takes the distributions from it', () => {
    const deals = dealCsvRunData(at('a.deals.csv'));
    const [a, b] = [robin.sections[0], deals.sections[0]];
    expect(b.means).toEqual(a.means);
    expect(b.pairs).toEqual(a.pairs);
    expect(b.running).toEqual(a.running);
    expect(b.distributions).toEqual(a.distributions);
    expect(a.distributions!.map((d) => [d.metric, d.per])).toEqual([
      ['points', 'seat-deal'],
      ['rungs', 'seat-deal'],
    ]);
    const points = a.distributions![0];
    expect(points.totals.map((t) => t.count)).toEqual([240, 240, 240]);
    expect(points.bins.filter((x) => x.bot === 'random').reduce((s, x) => s + x.count, 0)).toBe(240);
  });

  it("recomputes the SPRT's walk to the verdict the summary holds", () => {
    const data = journalRunData(readJournals([at('b1.journal.jsonl')])[0]);
    const row = read(at('b1.csv'))
      .split('\n')
      .find((l) => l.includes(',sprt,'))!
      .split(',');
    const t = data.sprt!;
    expect(t.decision).toBe('H1');
    expect(row[16]).toBe('H1');
    expect(t.groups).toBe(Number(row[11]));
    expect(t.llr.toFixed(6)).toBe(row[12]);
    expect(t.walk![t.walk!.length - 1]).toEqual({ groups: t.groups, llr: t.llr });
    expect(Object.fromEntries(data.identity.facts).size).toMatch(
      /stopped by the SPRT's decision after \d+ of 300 groups/,
    );
    expect(data.notes.join(' ')).toMatch(/per-deal CSV \(--deal-csv\)/);
  });

  it('recognises each input by its contents and keeps them in the order given', () => {
    const fixtures = join(ROOT, 'test/fixtures/report');
    const parts = readInputs([
      join(fixtures, 'estimates.csv'),
      at('a.journal.jsonl'),
      at('a.csv'),
      at('a.deals.csv'),
      join(fixtures, 'facets.csv'),
    ]);
    // The summary and per-deal CSV of the run whose journal is given add nothing but the per-deal values;
    // an experiment's CSV is drawn from the plan beside it.
    expect(parts.map((p) => p.kind)).toEqual(['declared', 'run', 'declared']);
    expect(parts[0].identity.command).toBe('tafel experiment estimates.plan.json');
    expect(parts[2].identity.title).toBe('How often are marches made, by phase?');
    const html = reportHtml(parts, { made: new Date(0) });
    for (const kind of ['estimates', 'means', 'pairs']) expect(html).toContain(`data-figure="${kind}"`);
  });

  it("draws an experiment's CSV whatever the order of its columns, and columns its plan does not name", () => {
    const [head, ...rows] = read(join(ROOT, 'results/ladder-viersche.csv')).trim().split('\n');
    const cols = head.split(',');
    const order = ['bot', 'game', ...cols.filter((c) => c !== 'bot' && c !== 'game'), 'budget'];
    const moved = rows.map((r) => {
      const v = Object.fromEntries(r.split(',').map((x, i) => [cols[i], x]));
      return order.map((c) => v[c] ?? '40').join(',');
    });
    writeFileSync(at('ladder-next.csv'), [order.join(','), ...moved, ''].join('\n'));
    const plan = { plan: 1, name: 'ladder-next', question: 'A later ladder', tables: [{ name: 'ladder' }] };
    writeFileSync(at('ladder-next.plan.json'), JSON.stringify({ ...plan, figures: FIGURES.ladder }));
    const [part] = readInputs([at('ladder-next.csv')]);
    expect(part.kind).toBe('declared');
    const html = reportHtml([part], { made: new Date(0) });
    for (const f of FIGURES.ladder) expect(html).toContain(`<h3>${f.title.replace(/&/g, '&amp;')}</h3>`);
    expect(html).toContain('<td>oracle</td><td class="num">1</td><td>gap_share</td>');
  });

  it('refuses what it cannot read, in one line', () => {
    const bad = (paths: string[], pattern: RegExp) => {
      try {
        readInputs(paths);
      } catch (e) {
        expect(isTafelError(e), String(e)).toBe(true);
        expect((e as Error).message).toMatch(pattern);
        return;
      }
      throw new Error(`read ${paths.join()}`);
    };
    writeFileSync(at('notes.txt'), 'some notes\n');
    const duck = Buffer.alloc(64);
    duck.write('DUCK', 8, 'latin1');
    writeFileSync(at('x.duckdb'), duck);
    const deals = read(at('a.deals.csv')).split('\n');
    writeFileSync(at('broken.csv'), [...deals.slice(0, 5), deals[5].replace(/,\d+,(\d+),/, ',x,$1,'), ''].join('\n'));
    bad([], /give the files/);
    bad([at('missing.jsonl')], /missing\.jsonl: no such file/);
    bad([dir], /is a directory/);
    bad([at('notes.txt')], /none of what a report reads/);
    bad([at('x.duckdb')], /DuckDB database/);
    bad([at('broken.csv')], /per-deal CSV .*broken\.csv: line 6: /);
  });

  it('tells the user in one line (status 2) what is wrong, and checks --report before a run plays', () => {
    expectUserError(
      tafel(['report', 'nothing.jsonl', '--out', 'x.html'], dir),
      /^tafel: report: nothing\.jsonl: no such file$/,
    );
    expectUserError(tafel(['report', 'a.csv', '--out', 'a.html'], dir), /--out a\.html: the file exists/);
    expectUserError(tafel(['report', 'a.csv', '--out', 'a.csv'], dir), /is one of the inputs/);
    expectUserError(
      tafel(['run', ...runs.sprt, '--out', 'c.csv', '--report', 'no/such/dir/c.html'], dir),
      /--report no\/such\/dir\/c\.html: cannot write: there is no directory no\/such\/dir/,
    );
    expect(() => read(at('c.journal.jsonl'))).toThrow();
    expectUserError(
      tafel(['run', '--resume', 'b1.journal.jsonl', '--report', 'other.html'], dir),
      /--report differs \(the journal has 'b1\.html', the command line 'other\.html'\)/,
    );
  });
});
