/**
 * Interrupting and resuming: SIGINT keeps every finished group in valid files and
 * prints the command that resumes; the resumed run ends byte for byte where an
 * uninterrupted one does (summary, journal, records, per-deal CSV). Files cut off
 * mid-line or ahead of the journal are cut back; a journal of another run, a corrupt
 * one or a missing file is one line and exit 2.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  expectUserError,
  journalGroups,
  journalState,
  read,
  results,
  start,
  tafel,
  tmpDir,
} from './cli-helpers.js';

const OUT = ['--out', 'x.csv', '--records', 'x.jsonl', '--deal-csv', 'x.deals.csv'];
const FILES = ['x.csv', 'x.journal.jsonl', 'x.jsonl', 'x.deals.csv'];

/** A file as two runs must agree on it: the journal's final state (its checkpoints in between depend on timing), other files whole. */
function same(path: string): string {
  return path.endsWith('.journal.jsonl') ? journalState(read(path)) : read(path);
}

function lines(path: string): number {
  return existsSync(path) ? read(path).split('\n').length - 1 : 0;
}

async function waitFor(cond: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Byte offset after the first `n` lines. */
function offsetOfLine(text: string, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) at = text.indexOf('\n', at) + 1;
  return Buffer.byteLength(text.slice(0, at));
}

describe('SIGINT and --resume', () => {
  // A slow bot (a busy wait per move) so that the run is still going when the signal comes.
  const run = [
    'run',
    '--game',
    'viersche',
    '--bots',
    `heuristic,${join(ROOT, 'test/fixtures/slow-bot.js')}:ms=0.05`,
    '--deals',
    '600',
    '--seed',
    'r',
  ];

  it('keeps the finished groups, prints the resume command, and resumes to exactly the uninterrupted result', async () => {
    const a = tmpDir();
    const { child, done } = start([...run, ...OUT, '--workers', '2'], a);
    await waitFor(() => lines(join(a, 'x.journal.jsonl')) >= 3);
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.status, stopped.stderr).toBe(130);
    const m =
      /^tafel: interrupted by SIGINT after (\d+) of 600 groups; resume with: (tafel run --resume x\.journal\.jsonl --workers 2)\n$/.exec(
        stopped.stderr,
      );
    expect(m, stopped.stderr).not.toBeNull();
    const kept = Number(m![1]);
    expect(kept).toBeGreaterThan(1);
    expect(kept).toBeLessThan(600);
    // Valid files holding exactly the finished groups.
    expect(journalGroups(read(join(a, 'x.journal.jsonl')))).toBe(kept);
    expect(lines(join(a, 'x.jsonl'))).toBe(2 * kept);
    expect(lines(join(a, 'x.deals.csv'))).toBe(1 + 8 * kept);
    expect(read(join(a, 'x.csv'))).toMatch(new RegExp(`,deal,heuristic,heuristic:[^,]*,,,points,${kept},`));
    expect(stopped.stdout).toContain(`n = ${kept} duplicate groups`);

    const resumed = tafel(m![2].split(' ').slice(1), a);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      `600 deals x 2 seat rotations (1200 deals played), seed r, resumed after ${kept} groups`,
    );

    const b = tmpDir();
    const whole = tafel([...run, ...OUT, '--workers', '1'], b);
    expect(whole.status, whole.stderr).toBe(0);
    for (const f of FILES) expect(same(join(a, f)), f).toBe(same(join(b, f)));
    expect(results(resumed)).toBe(results(whole));
  });

  it('says how to make a run resumable when it has no journal (SIGTERM)', async () => {
    // Records but no summary: no journal; the records show when play has begun.
    const dir = tmpDir();
    const { child, done } = start([...run, '--records', 'x.jsonl', '--workers', '1'], dir);
    await waitFor(() => lines(join(dir, 'x.jsonl')) > 0);
    child.kill('SIGTERM');
    const r = await done;
    expect(r.status, r.stderr).toBe(143);
    expect(r.stderr).toMatch(
      /^tafel: interrupted by SIGTERM after \d+ of 600 groups; the results so far are printed above; use --out or --journal to make a run resumable\n$/,
    );
  });
});

describe('--resume of damaged files', () => {
  const run = [
    'run',
    '--game',
    'viersche',
    '--bots',
    'heuristic,random',
    '--deals',
    '100',
    '--seed',
    'c',
    '--workers',
    '1',
  ];

  function complete(): { dir: string; ref: Record<string, string> } {
    const dir = tmpDir();
    const r = tafel([...run, ...OUT], dir);
    expect(r.status, r.stderr).toBe(0);
    return { dir, ref: Object.fromEntries(FILES.map((f) => [f, read(join(dir, f))])) };
  }

  it('drops a cut-off journal line and cuts records and per-deal rows back to a checkpoint they hold, then finishes identically', () => {
    const { dir, ref } = complete();
    // The journal stops in the middle of a checkpoint after group 40; the records stop in
    // the middle of group 25's second record; the per-deal CSV is complete (ahead of both).
    // The run goes back to the last checkpoint the records hold in full.
    const j = ref['x.journal.jsonl'];
    const cps = j
      .split('\n')
      .flatMap((l, i) => (l.startsWith('{"groups":') ? [{ line: i, groups: journalGroups(l) }] : []));
    const cut = cps.find((c) => c.groups > 40)!;
    const back = cps.filter((c) => c.groups <= 25).at(-1)?.groups ?? 0;
    truncateSync(join(dir, 'x.journal.jsonl'), offsetOfLine(j, cut.line) + 30);
    truncateSync(join(dir, 'x.jsonl'), offsetOfLine(ref['x.jsonl'], 2 * 25 + 1) + 50);
    rmSync(join(dir, 'x.csv'));
    const r = tafel(['run', '--resume', join(dir, 'x.journal.jsonl')], ROOT);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(back ? `resumed after ${back} groups` : '100 deals x 2 seat rotations');
    for (const f of FILES)
      expect(same(join(dir, f)), f).toBe(f.endsWith('.journal.jsonl') ? journalState(ref[f]) : ref[f]);
  });

  it('resumes a finished run to the same files', () => {
    const { dir, ref } = complete();
    const r = tafel(['run', '--resume', 'x.journal.jsonl', '--deals', '100', '--seed', 'c'], dir);
    expect(r.status, r.stderr).toBe(0);
    for (const f of FILES) expect(read(join(dir, f)), f).toBe(ref[f]);
  });

  it('refuses a journal of another run, a corrupt or foreign file, and a missing one, with one line', () => {
    const { dir, ref } = complete();
    const j = join(dir, 'x.journal.jsonl');
    const resume = (...more: string[]) => tafel(['run', '--resume', 'x.journal.jsonl', ...more], dir);
    expectUserError(
      resume('--seed', 'zz'),
      /^tafel: resume file x\.journal\.jsonl is from a different run: --seed differs \(the journal has 'c', the command line 'zz'\)$/,
    );
    expectUserError(
      resume('--deals', '99'),
      /is from a different run: --deals differs \(the journal has '--deals 100', the command line '--deals 99'\)$/,
    );
    expectUserError(resume('--bots', 'random,heuristic'), /is from a different run: --bots differs/);
    expectUserError(resume('--out', 'y.csv'), /is from a different run: --out differs/);
    expectUserError(tafel(['run', '--resume', 'x.csv'], dir), /^tafel: resume file x\.csv: not a tafel journal/);
    expectUserError(
      tafel(['run', '--resume', 'nowhere.jsonl'], dir),
      /^tafel: resume file nowhere\.jsonl: cannot read \(ENOENT\)$/,
    );

    const text = ref['x.journal.jsonl'].split('\n');
    writeFileSync(j, [...text.slice(0, 4), 'garbage', ...text.slice(5)].join('\n'));
    expectUserError(resume(), /^tafel: resume file x\.journal\.jsonl: line 5 is not JSON \(a corrupt journal\)$/);
    writeFileSync(j, [text[0], text[1], text[3], text[2], ...text.slice(4)].join('\n'));
    expectUserError(resume(), /line 4 is a checkpoint after \d+ groups, out of order \(a corrupt journal\)$/);
    writeFileSync(j, ref['x.journal.jsonl']);
    rmSync(join(dir, 'x.jsonl'));
    expectUserError(
      resume(),
      /^tafel: cannot resume: --records \S+x\.jsonl is missing, but the journal has 100 groups$/,
    );
    copyFileSync(join(dir, 'x.deals.csv'), join(dir, 'x.jsonl'));
    expectUserError(resume(), /^tafel: cannot resume: --records \S+ line 1 is not one of this run \(a corrupt file\)$/);
    expect(readFileSync(j, 'utf8')).toBe(ref['x.journal.jsonl']);
  });

  it('refuses a journal whose sums were written for other metrics (another version of the game), one that does not name them, and one of an earlier format', () => {
    const { dir, ref } = complete();
    const j = join(dir, 'x.journal.jsonl');
    const [head, ...rest] = ref['x.journal.jsonl'].split('\n');
    const header = JSON.parse(head) as { v: number; spec: { metrics?: { deal: string[] } } };
    expect(header.spec.metrics).toEqual({ deal: ['points', 'won', 'rungs'], match: ['won', 'sets', 'marks'] });
    header.spec.metrics!.deal = ['won', 'points', 'rungs'];
    writeFileSync(j, [JSON.stringify(header), ...rest].join('\n'));
    expectUserError(
      tafel(['run', '--resume', 'x.journal.jsonl'], dir),
      /^tafel: journal x\.journal\.jsonl: written for deal metrics won,points,rungs, but this tafel's viersche has points,won,rungs; run it again$/,
    );
    expectUserError(tafel(['merge', 'x.journal.jsonl'], dir), /written for deal metrics won,points,rungs/);
    delete header.spec.metrics;
    writeFileSync(j, [JSON.stringify(header), ...rest].join('\n'));
    expectUserError(
      tafel(['run', '--resume', 'x.journal.jsonl'], dir),
      /^tafel: resume file x\.journal\.jsonl: line 1: spec\.metrics: Invalid input: expected object, received undefined$/,
    );
    // The schema names the field and what is wrong with it.
    writeFileSync(j, [JSON.stringify({ ...header, spec: { ...header.spec, groups: -3 } }), ...rest].join('\n'));
    expectUserError(
      tafel(['run', '--resume', 'x.journal.jsonl'], dir),
      /^tafel: resume file x\.journal\.jsonl: line 1: spec\.groups: expected a whole number from 0, got -3$/,
    );
    // A journal of tafel 0.1 (format 1: a `run` and `files` instead of the spec).
    const v1 = { tafel: 'journal', v: 1, run: { game: 'viersche' }, files: { cwd: '.' } };
    writeFileSync(j, [JSON.stringify(v1), ...rest].join('\n'));
    expectUserError(
      tafel(['run', '--resume', 'x.journal.jsonl'], dir),
      /^tafel: resume file x\.journal\.jsonl: journal format 1, written by another version of tafel \(this one reads formats 2 and 3\); run it again$/,
    );
    expectUserError(tafel(['merge', 'x.journal.jsonl'], dir), /journal format 1, written by another version of tafel/);
  });

  it('needs --game and --bots without --resume', () => {
    expectUserError(tafel(['run', '--bots', 'random']), /required option '--game <name>' not specified/);
    expectUserError(tafel(['run', '--game', 'viersche']), /required option '--bots <list>' not specified/);
  });
});
