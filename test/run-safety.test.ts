/**
 * What a run promises its user beyond its numbers: a bot that never answers is stopped
 * (with a move timeout) or a signal still ends the run (without one); finished work is
 * never overwritten unless asked; every output path is checked before the first deal;
 * and every output says what was run.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { checkOutputs } from '../src/harness/run/outputs.js';
import { ROOT, expectUserError, journalGroups, journalState, read, start, tafel, tmpDir } from './cli-helpers.js';

const HANG = join(ROOT, 'test', 'fixtures', 'hang-bot.js');

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir)) out[f] = `${statSync(join(dir, f)).mtimeMs}:${readFileSync(join(dir, f), 'utf8')}`;
  return out;
}

describe('a bot that never answers', () => {
  const run = (workers: number, more: string[] = []) => {
    const dir = tmpDir();
    // The timeout is generous (1 s) so that an honest move of a loaded machine never reaches it.
    const r = tafel(
      [
        'run',
        '--game',
        'viersche',
        '--bots',
        `${HANG}:rate=0.0015,random`,
        '--deals',
        '60',
        '--seed',
        'hang',
        '--move-timeout',
        '1000',
        '--workers',
        String(workers),
        '--out',
        'h.csv',
        '--records',
        'h.jsonl',
        ...more,
      ],
      dir,
    );
    return { r, dir, file: (f: string) => read(join(dir, f)) };
  };

  it('is stopped after the move timeout and stops the run like a throw (1 worker): status 3, one line, finished groups kept and resumable', () => {
    const { r, file } = run(1);
    expect(r.status, r.stderr).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const m =
      /^tafel: bot \S+hang-bot\.js:rate=0\.0015 at seat \d did not answer within the move timeout of 1000 ms \(stopped 250 ms later\) \(seed hang, deal (\d+), rotation \d\); the (\d+) groups finished before it are reported above and in the summary; after fixing the bot, continue with: tafel run --resume h\.journal\.jsonl$/.exec(
        lines[0],
      );
    expect(m, lines[0]).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    const kept = Number(m![1]);
    expect(kept).toBeGreaterThan(0);
    expect(journalGroups(file('h.journal.jsonl'))).toBe(kept);
    expect(file('h.jsonl').trim().split('\n')).toHaveLength(2 * kept);
  });

  it('is skipped with --on-bot-error skip, with the same files for 1 and 2 workers', () => {
    const one = run(1, ['--on-bot-error', 'skip']);
    const two = run(2, ['--on-bot-error', 'skip']);
    for (const x of [one, two]) expect(x.r.status, x.r.stderr).toBe(0);
    for (const f of ['h.csv', 'h.jsonl']) expect(two.file(f), f).toBe(one.file(f));
    const body = (j: string) => journalState(j).slice(journalState(j).indexOf('\n'));
    expect(body(two.file('h.journal.jsonl'))).toBe(body(one.file('h.journal.jsonl')));
    const skipped = one
      .file('h.journal.jsonl')
      .split('\n')
      .filter((l) => l.includes('"skipped"'));
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]).toContain('did not answer within the move timeout of 1000 ms');
    expect(one.r.stdout).toContain(`dropped: ${skipped.length} deals in which a bot failed`);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`without a move timeout, ${signal} still ends the run, leaving valid files`, async () => {
      const dir = tmpDir();
      const t = start(
        ['run', '--game', 'viersche', '--bots', `${HANG},random`, '--deals', '5', '--out', 'x.csv', '--workers', '1'],
        dir,
      );
      // The journal's header is written when play begins: from then on the bot hangs.
      for (let i = 0; i < 200 && !existsSync(join(dir, 'x.journal.jsonl')); i++) await sleep(100);
      await sleep(500);
      t.child.kill(signal);
      const killer = setTimeout(() => t.child.kill('SIGKILL'), 15_000);
      const r = await t.done;
      clearTimeout(killer);
      expect(r.status, r.stderr).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(r.stderr).toMatch(
        new RegExp(
          `tafel: interrupted by ${signal} after 0 of 5 groups; resume with: tafel run --resume x\\.journal\\.jsonl`,
        ),
      );
      expect(read(join(dir, 'x.journal.jsonl'))).toMatch(/^\{"tafel":"journal","v":3,"spec":\{.*\}\}\n$/);
    });
  }
});

describe('finished work is not overwritten', () => {
  const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '10', '--seed', 'ow'];

  it('refuses to start when an output exists, naming it and the two ways out; --force replaces', () => {
    const dir = tmpDir();
    expect(tafel([...RUN, '--out', 'x.csv', '--records', 'x.jsonl'], dir).status).toBe(0);
    const before = snapshot(dir);
    expectUserError(
      tafel([...RUN, '--out', 'x.csv', '--records', 'x.jsonl'], dir),
      /^tafel: --out x\.csv: the file exists \(an earlier run's\?\); continue that run with --resume x\.journal\.jsonl, or replace its files with --force$/,
    );
    // Only the records exist: no journal to resume, so only --force is offered.
    expectUserError(
      tafel([...RUN, '--records', 'x.jsonl'], dir),
      /^tafel: --records x\.jsonl: the file exists \(an earlier run's\?\); replace it with --force, or choose another name$/,
    );
    expect(snapshot(dir)).toEqual(before);
    const forced = tafel([...RUN, '--out', 'x.csv', '--records', 'x.jsonl', '--force'], dir);
    expect(forced.status, forced.stderr).toBe(0);
    expect(read(join(dir, 'x.csv'))).toBe(before['x.csv'].slice(before['x.csv'].indexOf(':') + 1));
    expectUserError(tafel(['run', '--resume', 'x.journal.jsonl', '--force'], dir), /give one of them/);
  });

  it('merge --out refuses an existing file too', () => {
    const dir = tmpDir();
    expect(tafel([...RUN, '--out', 'x.csv'], dir).status).toBe(0);
    writeFileSync(join(dir, 'm.csv'), 'keep me');
    expectUserError(
      tafel(['merge', 'x.journal.jsonl', '--out', 'm.csv'], dir),
      /^tafel: --out m\.csv: the file exists/,
    );
    expect(read(join(dir, 'm.csv'))).toBe('keep me');
    expect(tafel(['merge', 'x.journal.jsonl', '--out', 'm.csv', '--force'], dir).status).toBe(0);
  });
});

describe('outputs are checked before play', () => {
  it('refuses a folder, a missing folder and two outputs on one file, before any deal and leaving nothing behind', () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'results'));
    const RUN = ['run', '--game', 'viersche', '--bots', 'random', '--deals', '100000'];
    const started = performance.now();
    expectUserError(
      tafel([...RUN, '--out', 'results'], dir),
      /^tafel: --out results: is a directory; give a file name$/,
    );
    expectUserError(tafel([...RUN, '--records', 'results'], dir), /^tafel: --records results: is a directory/);
    expectUserError(
      tafel([...RUN, '--deal-csv', 'nowhere/x.csv'], dir),
      /^tafel: --deal-csv nowhere\/x\.csv: cannot write: there is no directory nowhere$/,
    );
    expectUserError(
      tafel([...RUN, '--out', 'a.csv', '--journal', 'a.csv'], dir),
      /^tafel: --out and --journal name the same file, a\.csv$/,
    );
    // 100,000 deals would take seconds: the refusals came before play.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(readdirSync(dir)).toEqual(['results']);
    expect(readdirSync(join(dir, 'results'))).toEqual([]);
  });
});

describe('every output says what was run', () => {
  it('the summary and the table carry game, seats, rules in force and bots with every parameter', () => {
    const dir = tmpDir();
    const r = tafel(
      [
        'run',
        '--game',
        'hindersche',
        '--rules',
        'schleipfen=true',
        '--bots',
        'h=heuristic,random',
        '--deals',
        '20',
        '--out',
        'x.csv',
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe('rules: schleipfen=true, games=4, tariff=5');
    expect(lines[2]).toMatch(/^bots: h = heuristic:\S+; random = random$/);
    expect(lines[3]).toBe('seats in rotation 0: h, random, h, random');
    expect(lines[4]).toBe(
      'played by: tafel run --game hindersche --players 4 --rules schleipfen=true,games=4,tariff=5 --bots h=heuristic,random --seed 1 --deals 20',
    );
    const [head, first] = read(join(dir, 'x.csv')).split('\n');
    expect(head).toBe(
      'game,seats,rules,players,seed,section,bot,bot_spec,opponent,opponent_spec,metric,n,mean,ci95_low,ci95_high,interval,verdict,cheats',
    );
    expect(first).toMatch(
      /^hindersche,4,schleipfen=true;games=4;tariff=5,h;random;h;random,1,deal,h,heuristic:[^,]+,,,marks,/,
    );
    // Results only on stdout; where they went, on stderr.
    expect(r.stdout).not.toContain('written to');
    expect(r.stderr).toContain('tafel: summary written to x.csv');
  });

  it('puts the SPRT verdict in the summary', () => {
    const dir = tmpDir();
    const r = tafel(
      [
        'run',
        '--game',
        'viersche',
        '--bots',
        'heuristic,random',
        '--deals',
        '400',
        '--sprt',
        'mean0=0,mean1=10',
        '--out',
        'x.csv',
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    const groups = /SPRT: H1 accepted \(LLR ([\d.]+) >= 2\.94\) after (\d+) groups/.exec(r.stdout);
    expect(groups, r.stdout).not.toBeNull();
    const row = read(join(dir, 'x.csv'))
      .split('\n')
      .find((l) => l.includes(',sprt,'));
    expect(row).toMatch(
      new RegExp(
        `,sprt,heuristic,[^,]+,random,random,points,${groups![2]},${groups![1]}\\d*,-2\\.944439,2\\.944439,sprt:mean0=0;mean1=10;alpha=0\\.05;beta=0\\.05,H1,0$`,
      ),
    );
  });

  it('labels bots: two copies of one bot are two entrants, and a label cannot name two bots', () => {
    const r = tafel(['run', '--game', 'viersche', '--bots', 'x=heuristic,y=heuristic', '--deals', '10']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('x - y');
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'a=heuristic,a=random', '--deals', '10']),
      /label a names two different bots \(heuristic and random\)/,
    );
    const same = tafel(['run', '--game', 'viersche', '--bots', 'heuristic,heuristic', '--deals', '5']);
    expect(same.status).toBe(0);
    expect(same.stderr).toMatch(
      /note: --bots names heuristic 2 times, which is one bot at every seat: nothing is compared/,
    );
  });

  it('lists the metrics of each game, and prints its version', () => {
    const games = tafel(['games']).stdout;
    expect(games).toMatch(/^ {2}metric per deal points \(higher is better\): /m);
    expect(games).toMatch(/^ {2}metric per deal in \(higher is better, a rate\): /m);
    expect(games).toMatch(/^ {2}metric per match balance /m);
    const pkg = JSON.parse(read(join(ROOT, 'package.json'))) as { version: string };
    expect(tafel(['--version']).stdout.trim()).toBe(pkg.version);
  });
});

describe('smaller edges', () => {
  it('replay plays a deal again with the seed run defaults to', () => {
    const dir = tmpDir();
    expect(
      tafel(['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '3', '--records', 'r.jsonl'], dir)
        .status,
    ).toBe(0);
    const again = tafel(['replay', '--game', 'viersche', '--bots', 'heuristic,random', '--match', '3'], dir);
    const stored = tafel(['replay', '--records', 'r.jsonl', '--match', '3'], dir);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(stored.stdout);
    expect(again.stdout).toContain('seed 1  match 3');
  });

  it('a shard that holds no group says so, and merges', () => {
    const dir = tmpDir();
    const RUN = ['run', '--game', 'viersche', '--bots', 'random', '--deals', '2', '--workers', '1'];
    const r = tafel([...RUN, '--shard', '0/3', '--out', 'p0.csv'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: shard 0/3 holds no group');
    expect(r.stdout).toContain('shard 0/3 (no groups)');
    for (const i of [1, 2]) expect(tafel([...RUN, '--shard', `${i}/3`, '--out', `p${i}.csv`], dir).status).toBe(0);
    const m = tafel(['merge', 'p0.journal.jsonl', 'p1.journal.jsonl', 'p2.journal.jsonl', '--out', 'all.csv'], dir);
    expect(m.status, m.stderr).toBe(0);
    expect(m.stdout).toContain('2 deals x 1 seat rotations');
  });
});

describe('one check of every output: files, output directories and the inputs they must not overwrite', () => {
  const outDir = (dir: string, files: string[], resumable = false) => ({
    flag: resumable ? '--work-dir' : '--out-dir',
    shown: 'out',
    path: join(dir, 'out'),
    files,
    resumable,
  });
  const page = (path: string) => ({ flag: '--report', kind: 'html' as const, shown: 'out/x.html', path });

  it('makes an output directory, and takes a file in it before it is made', () => {
    const dir = tmpDir();
    checkOutputs([page(join(dir, 'out', 'x.html'))], { existing: 'refuse', dirs: [outDir(dir, ['a.csv'])] });
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
    // Not in a directory that is made: refused.
    expect(() => checkOutputs([page(join(dir, 'elsewhere', 'x.html'))], { existing: 'refuse' })).toThrow(
      /^--report out\/x\.html: cannot write: there is no directory out$/,
    );
  });

  it("refuses a directory's earlier files unless replaced or continued, and makes nothing when it refuses", () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'a.csv'), 'earlier');
    const refused = [
      [
        outDir(dir, ['a.csv']),
        /^--out-dir out: a\.csv exists \(earlier results\); replace them with --force, or choose another --out-dir$/,
      ],
      [
        outDir(dir, ['a.csv'], true),
        /^--work-dir out: a\.csv exists \(an earlier run's\); continue with --resume, or replace with --force$/,
      ],
    ] as const;
    for (const [d, message] of refused) {
      const made = join(dir, 'made');
      const other = { flag: '--out-dir', shown: 'made', path: made, files: [] };
      expect(() => checkOutputs([], { existing: 'refuse', dirs: [other, d] })).toThrow(message);
      expect(existsSync(made)).toBe(false);
      checkOutputs([], { existing: 'replace', dirs: [d] });
      checkOutputs([], { existing: 'continue', dirs: [d] });
    }
    mkdirSync(join(dir, 'out', 'b.csv'));
    expect(() => checkOutputs([], { existing: 'replace', dirs: [outDir(dir, ['b.csv'])] })).toThrow(
      /^--out-dir out: b\.csv is a directory$/,
    );
    expect(read(join(dir, 'out', 'a.csv'))).toBe('earlier');
  });

  it('refuses an output that is one of the inputs', () => {
    const dir = tmpDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, 'journal');
    const out = { flag: '--journal', kind: 'jsonl' as const, shown: 'in.jsonl', path: input };
    const inputs = [{ who: 'merge', what: 'one of the journals being merged', paths: [input] }];
    expect(() => checkOutputs([out], { existing: 'replace', inputs })).toThrow(
      /^merge: in\.jsonl is one of the journals being merged$/,
    );
    expect(read(input)).toBe('journal');
  });

  it("merge refuses to write over a shard's own files", () => {
    const dir = tmpDir();
    const RUN = ['run', '--game', 'viersche', '--bots', 'random', '--deals', '4', '--seed', 'm'];
    for (const i of [0, 1])
      expect(tafel([...RUN, '--shard', `${i}/2`, '--out', `p${i}.csv`, '--records', `p${i}.jsonl`], dir).status).toBe(
        0,
      );
    expectUserError(
      tafel(['merge', 'p0.journal.jsonl', 'p1.journal.jsonl', '--records', 'p1.jsonl', '--force'], dir),
      /^tafel: merge: p1\.jsonl is one of the shards' own files$/,
    );
  });
});
