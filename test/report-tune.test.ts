/**
 * The page of a tuning: `tafel tune --report` draws it from the tuning it just played,
 * `tafel report` from its journal (replayed as a resume replays it, with the
 * verification's journal) or its iteration CSV; all three show the tuning's own
 * numbers (every iteration's theta, step, flip and result, the tuned bot, the
 * verification and its SPRT walk). --report is checked before the first iteration and
 * kept by --resume; bad input is one line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { readTuneJournal } from '../src/harness/tune/journal.js';
import { tuneCommandOf } from '../src/harness/tune/spec.js';
import { readInputs } from '../src/report/inputs.js';
import { tuneCsvData, tuneJournalData } from '../src/report/tune-input.js';
import { ROOT, expectUserError, read, tafel, tmpDir, type Ran } from './cli-helpers.js';

const PEAK = join(ROOT, 'test/fixtures/peak-bot.js');
const TUNING = ['--bot', `${PEAK}:x=2`, '--tune', 'x:c=1,n', '--iterations', '40', '--pairs', '8'];

function tune(args: readonly string[], cwd: string): Ran {
  return tafel(['tune', '--game', 'viersche', ...args, '--workers', '2'], cwd);
}

/** A page without what tells when and from where it was made. */
function timeless(html: string): string {
  return html
    .replace(/<p class="made">[^<]*<\/p>/, '')
    .replace(/<dd data-fact="time">[^<]*<\/dd>/g, '')
    .replace(/<dt>read from<\/dt><dd data-fact="sources">.*?<\/dd>/g, '');
}

describe('the page of a tuning', () => {
  const dir = tmpDir();
  const at = (f: string) => join(dir, f);
  let sprt: Ran;

  beforeAll(() => {
    sprt = tune(
      [...TUNING, '--verify', '300', '--sprt', 'mean0=0,mean1=5', '--out', 't.csv', '--report', 't.html'],
      dir,
    );
    expect(sprt.status, sprt.stderr).toBe(0);
    expect(sprt.stderr).toMatch(/report written to t\.html \(\d+ KB\)/);
    const paired = tune([...TUNING, '--seed', '2', '--verify', '200', '--out', 'p.csv', '--report', 'p.html'], dir);
    expect(paired.status, paired.stderr).toBe(0);
  });

  it('is the same drawn from the tuning, from its journal and from its CSV', () => {
    for (const [input, page] of [
      ['t.journal.jsonl', 'tj.html'],
      ['t.csv', 'tc.html'],
      ['p.journal.jsonl', 'pj.html'],
    ]) {
      const r = tafel(['report', input, '--out', page], dir);
      expect(r.status, r.stderr).toBe(0);
      // The verification's journal (format 3), which the tuning's journal and CSV both lead
      // to, keeps its SPRT's state at checkpoints: the walk drawn from it has a point per
      // checkpoint, not one per group.
      const walkless = (html: string) =>
        input.startsWith('t.')
          ? html.replace(/<figure id="[^"]*" data-figure="sprt">[\s\S]*?<\/figure>/, '<figure data-figure="sprt">')
          : html;
      expect(walkless(timeless(read(at(page))))).toBe(walkless(timeless(read(at(`${input[0]}.html`)))));
    }
    const html = read(at('t.html'));
    for (const figure of ['tune-path', 'tune-results', 'tune-verify', 'sprt'])
      expect(html).toContain(`data-figure="${figure}"`);
    expect(/<script|<link|<img|https?:\/\/|url\((?!#)/i.exec(html)?.[0] ?? null).toBeNull();
  });

  it("shows the tuning's own numbers: each iteration, the tuned bot, the verification and its SPRT walk", () => {
    const data = tuneJournalData(at('t.journal.jsonl'));
    const { spec, lines } = readTuneJournal(at('t.journal.jsonl'));
    const rows = parse<Record<string, string>>(read(at('t.csv')), { columns: true });
    const iterations = rows.filter((r) => r.row === 'iteration');
    expect(data.iterations).toHaveLength(40);
    data.iterations.forEach((it, k) => {
      expect(it.theta).toEqual(k === 0 ? [2, 12] : lines[k - 1].theta);
      expect(it.c.map(String)).toEqual([iterations[k].c_x, iterations[k].c_n]);
      expect(it.flips.map(String)).toEqual([iterations[k].flip_x, iterations[k].flip_n]);
      expect(String(it.result)).toBe(iterations[k].result);
      expect(it.groups).toBe(8);
    });
    expect(data.params.map((p) => [p.name, p.min, p.max, p.start])).toEqual([
      ['x', 0, 10, 2],
      ['n', 0, 20, 12],
    ]);
    expect(`tuned: ${data.tuned}`).toBe(sprt.stdout.trim().split('\n').at(-1));
    expect(data.identity.command).toBe(tuneCommandOf(spec));
    const v = data.verification!;
    const row = rows.find((r) => r.row === 'verify')!;
    expect(v.verdict).toBe(row.verdict);
    expect(v.estimate.n).toBe(Number(row.groups));
    expect(v.estimate.mean).toBeCloseTo(Number(row.diff), 12);
    expect(v.sprt!.decision ?? 'none').toBe(row.verdict);
    expect(v.sprt!.walk!.at(-1)).toEqual({ groups: v.sprt!.groups, llr: v.sprt!.llr });
    expect(Object.fromEntries(data.identity.facts).size).toBe(
      '40 of 40 iterations × 8 duplicate groups, 640 deals played',
    );
  });

  it('reads an iteration CSV alone: every iteration and the verification, and says what its journal adds', () => {
    mkdirSync(at('alone'));
    copyFileSync(at('p.csv'), at('alone/p.csv'));
    const alone = tuneCsvData(at('alone/p.csv'));
    const full = tuneJournalData(at('p.journal.jsonl'));
    expect(alone.iterations.length).toBe(full.iterations.length);
    alone.iterations.forEach((it, k) => {
      const f = full.iterations[k];
      expect([it.iteration, it.flips, it.groups]).toEqual([f.iteration, f.flips, f.groups]);
      it.theta.forEach((x, i) => expect(x).toBeCloseTo(f.theta[i], 12));
      it.c.forEach((x, i) => expect(x).toBeCloseTo(f.c[i], 12));
      expect(it.result).toBeCloseTo(f.result, 12);
    });
    expect(alone.params.map((p) => [p.name, p.min, p.start, p.tuned])).toEqual(
      full.params.map((p) => [p.name, null, p.start, p.tuned]),
    );
    expect(alone.verification!.verdict).toBe(full.verification!.verdict);
    expect(alone.verification!.estimate.high).toBeCloseTo(full.verification!.estimate.high, 12);
    expect(alone.identity.command).toBeNull();
    expect(alone.notes.join(' ')).toMatch(/journal .* holds the bounds, the schedule, the command/);
  });

  it('takes a tuning among other inputs in the order given, its CSV adding nothing to its journal', () => {
    const experiment = join(ROOT, 'test/fixtures/report/facets.csv');
    const parts = readInputs([at('p.csv'), at('t.journal.jsonl'), at('t.csv'), experiment]);
    expect(parts.map((p) => [p.kind, p.identity.title])).toEqual([
      ['tune', expect.stringContaining('seed 2')],
      ['tune', expect.stringContaining('seed 1')],
      ['declared', 'How often are marches made, by phase?'],
    ]);
  });

  it('is kept by --resume: the resumed tuning writes the same page', () => {
    mkdirSync(at('r'));
    const journal = read(at('t.journal.jsonl')).split('\n');
    writeFileSync(at('r/t.journal.jsonl'), journal.slice(0, 16).join('\n') + '\n');
    expectUserError(
      tafel(['tune', '--resume', 'r/t.journal.jsonl', '--report', 'x.html'], dir),
      /is from a different tuning: --report differs \(the journal has 't\.html', the command line 'x\.html'\)$/,
    );
    const r = tafel(['tune', '--resume', 'r/t.journal.jsonl', '--workers', '2'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/report written to r\/t\.html/);
    expect(timeless(read(at('r/t.html')))).toBe(timeless(read(at('t.html'))));
  });

  it('checks --report before the first iteration, and refuses a corrupt journal, in one line', () => {
    expectUserError(
      tune([...TUNING, '--out', 'n.csv', '--report', 't.html'], dir),
      /--report t\.html: the file exists/,
    );
    expect(() => read(at('n.journal.jsonl'))).toThrow();
    expectUserError(
      tune([...TUNING, '--report', 'no/such/dir/t.html'], dir),
      /--report no\/such\/dir\/t\.html: cannot write: there is no directory no\/such\/dir/,
    );
    const [header, first, ...rest] = read(at('p.journal.jsonl')).split('\n');
    const line = JSON.parse(first) as { d: number[] };
    line.d[0] += 1;
    writeFileSync(at('bad.jsonl'), [header, JSON.stringify(line), ...rest].join('\n'));
    expectUserError(
      tafel(['report', 'bad.jsonl', '--out', 'bad.html'], dir),
      /^tafel: report: bad\.jsonl: iteration 1 does not lead to the theta it holds/,
    );
    rmSync(at('bad.jsonl'));
  });
});
