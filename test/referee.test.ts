/**
 * The referee end to end: bot programs (test/fixtures/programs/spec_bot.py, written from
 * PROTOCOL.md alone, and misbehave.py) through `tafel run`, `bots`, --sprt, --db, shards
 * and --resume; every fault kind through --on-bot-error stop and skip; no bot process
 * and no FIFO directory outlives a run; a program's stderr goes to its log file.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, journalState, read, results, start, tafel, tmpDir } from './cli-helpers.js';

/** A file's text as two runs of one run agree on it: a journal's final state (journal.ts), other files whole. */
const same = (text: string, f: string) => (f.endsWith('.journal.jsonl') ? journalState(text) : text);
import { runQuery } from '../src/harness/db/query.js';

const SPEC = `python3 ${join(ROOT, 'test/fixtures/programs/spec_bot.py')}`;
const MISBEHAVE = `python3 ${join(ROOT, 'test/fixtures/programs/misbehave.py')}`;
const GAMES = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'];

let tags = 0;
/** A token unique to this test process and call, to find the programs it started in /proc. */
const newTag = () => `rt${process.pid}x${tags++}`;

/** The pids of live processes whose command line holds `tag` (zombies have an empty one). */
function survivors(tag: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tag)) found.push(Number(pid));
    } catch {
      // gone in between
    }
  }
  return found;
}

/** The FIFO directories tafel makes in os.tmpdir(), named after the pid of its process. */
const fifoDirs = (pid: number) => readdirSync(tmpdir()).filter((d) => d === `tafel-${pid}`);

async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const lineCount = (path: string) => (existsSync(path) ? read(path).split('\n').length - 1 : 0);

function run(game: string, program: string, bots: string, deals: number, more: string[] = [], dir = tmpDir()) {
  const args = ['run', '--game', game, '--program', program, '--bots', bots, '--deals', String(deals)];
  const r = tafel([...args, '--seed', 'rt', '--out', 'a.csv', ...more], dir);
  return { r, dir, file: (f: string) => read(join(dir, f)) };
}

describe('spec_bot plays every game through tafel run', () => {
  it.each(GAMES)('%s, against heuristic, with an option set', (game) => {
    const x = run(game, `py=${SPEC}`, 'py:skill=7,heuristic', 2, ['--workers', '2']);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.r.stdout).toContain('bots: py:skill=7 = py:skill=7:style=careful:verbose=false;');
    expect(x.r.stdout).toMatch(/\npy:skill=7 +[-+\d]/);
    expect(x.file('a.csv')).toContain(`${game},`);
  });
});

describe('a program is as reproducible as a module bot', () => {
  const bots = 'py:skill=5:style=bold,random';
  const out = ['--records', 'a.jsonl'];
  const one = run('viersche', `py=${SPEC}`, bots, 6, [...out, '--workers', '1']);

  it('--workers 1 and 3 give the same summary, records, journal and table', () => {
    expect(one.r.status, one.r.stderr).toBe(0);
    const three = run('viersche', `py=${SPEC}`, bots, 6, [...out, '--workers', '3']);
    expect(three.r.status, three.r.stderr).toBe(0);
    // The journal too, header and all (it does not record --workers): its final state, as checkpoints fall by timing.
    for (const f of ['a.csv', 'a.jsonl', 'a.journal.jsonl'])
      expect(same(three.file(f), f), f).toBe(same(one.file(f), f));
    expect(results(three.r)).toBe(results(one.r));
  });

  it('shards 0/2 and 1/2 merged are the whole run', () => {
    const dir = tmpDir();
    for (const i of [0, 1]) {
      const args = ['run', '--game', 'viersche', '--program', `py=${SPEC}`, '--bots', bots, '--deals', '6'];
      const r = tafel(
        [...args, '--seed', 'rt', '--shard', `${i}/2`, '--journal', `s${i}.jsonl`, '--workers', '1'],
        dir,
      );
      expect(r.status, r.stderr).toBe(0);
    }
    const m = tafel(['merge', 's0.jsonl', 's1.jsonl', '--out', 'a.csv'], dir);
    expect(m.status, m.stderr).toBe(0);
    expect(read(join(dir, 'a.csv'))).toBe(one.file('a.csv'));
  });

  it('SIGINT mid-run, then --resume, ends where the uninterrupted run does', async () => {
    // misbehave.py plays at random, seeded by each deal; --fault slow at move 1 makes its first move slow.
    const prog = `m=${MISBEHAVE} --fault slow --at 1 --sleep 0.3`;
    const args = ['run', '--game', 'viersche', '--program', prog, '--bots', 'm,random', '--deals', '30'];
    const all = [...args, '--seed', 'rs', '--out', 'a.csv', '--records', 'a.jsonl'];
    const a = tmpDir();
    const { child, done } = start([...all, '--workers', '2'], a);
    await waitFor(() => lineCount(join(a, 'a.journal.jsonl')) >= 3);
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.status, stopped.stderr).toBe(130);
    const m = /resume with: (tafel run --resume a\.journal\.jsonl --workers 2)\n$/.exec(stopped.stderr);
    expect(m, stopped.stderr).not.toBeNull();
    const resumed = tafel(m![1].split(' ').slice(1), a);
    expect(resumed.status, resumed.stderr).toBe(0);
    const b = tmpDir();
    const whole = tafel([...all, '--workers', '2'], b);
    expect(whole.status, whole.stderr).toBe(0);
    for (const f of ['a.csv', 'a.jsonl', 'a.journal.jsonl'])
      expect(same(read(join(a, f)), f), f).toBe(same(read(join(b, f)), f));
  });
});

describe('--sprt and --db with a program', () => {
  it('--sprt runs spec_bot against random to a verdict or the deal limit', () => {
    const x = run('hindersche', `py=${SPEC}`, 'py:skill=7,random', 40, ['--sprt', 'elo0=0,elo1=200', '--workers', '2']);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.r.stdout).toMatch(/\nSPRT: H[01] accepted \(LLR [-+\d.]+ [<>]= [-+\d.]+\) after \d+ groups /);
  });

  it('--db holds every deal played', async () => {
    const x = run('viersche', `py=${SPEC}`, 'py,random', 5, ['--db', 'a.duckdb', '--workers', '2']);
    expect(x.r.status, x.r.stderr).toBe(0);
    const q = await runQuery([join(x.dir, 'a.duckdb')], 'SELECT count(*) FROM deals');
    // 5 groups of two seat rotations.
    expect(Number(q.rows[0][0])).toBe(10);
  });
});

describe('tafel tune of a program', () => {
  it("moves spec_bot's skill from 2 to near its best (7), against random", () => {
    // Viersche, 12 iterations x 3 groups, r=0.5: seeds a, b, c tuned to 9.16, 7.00, 7.51
    // (about 40 s each, two at once on 2 cores), so the bound is 2.5, not 1; more
    // iterations would tighten it but not within this file's time. Hindersche gave 8.24,
    // 7.10, 0.55, 5.59 for seeds a-d: too noisy at this size.
    const args = ['tune', '--game', 'viersche', '--program', `py=${SPEC}`, '--bot', 'py:skill=2'];
    const more = ['--tune', 'skill:c=1:r=0.5', '--iterations', '12', '--pairs', '3', '--against', 'random'];
    const r = tafel([...args, ...more, '--workers', '2', '--seed', 'c'], tmpDir());
    expect(r.status, r.stderr).toBe(0);
    const m = /\ntuned: py:skill=([\d.]+)\n?$/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Math.abs(Number(m![1]) - 7), r.stdout).toBeLessThan(2.5);
  }, 120_000);
});

describe('faults of a program through tafel run', () => {
  const cases: [string, string, string[], RegExp][] = [
    ['time', '--fault hang --at 3', ['--move-timeout', '500'], /did not play within 500 ms \(time forfeit\)/],
    ['time', '--fault slow --at 3 --sleep 0.6', ['--time-control', '0.3+0'], /\(time forfeit\)/],
    [
      'crash',
      '--fault crash --at 3',
      [],
      /exited with status 1 before quit \(crash; its stderr is in .*a\.m\.w\d+\.log, last: 'misbehave: crashing on purpose'\)/,
    ],
    ['crash', '--fault exit --at 2', [], /exited with status 0 before quit \(crash;/],
    [
      'malformed',
      '--fault garbage --at 3',
      [],
      /wrote a line that is not a JSON object: 'hello world, this is not a message' \(malformed\)/,
    ],
    ['illegal', '--fault illegal --at 3', [], /played '[^']+', not a legal move \(illegal move; legal: /],
    ['protocol', '--fault unasked --at 3', [], /sent 'play' where no move was asked \(protocol violation\)/],
    ['protocol', '--fault unknown --at 3', [], /sent a message of unknown type 'hello' \(protocol violation\)/],
  ];

  it.each(cases)('%s (%s): stop is one line and exit 3; skip counts it and finishes', (kind, fault, more, message) => {
    const tag = newTag();
    const prog = `m=${MISBEHAVE} ${fault} --tag ${tag}`;
    const stop = run('viersche', prog, 'm,random', 2, ['--workers', '2', ...more]);
    expect(stop.r.status, stop.r.stderr).toBe(3);
    const lines = stop.r.stderr.trim().split('\n');
    expect(lines, stop.r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^tafel: bot m at seat \d /);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/\(seed rt, deal \d+, rotation \d\)/);
    expect(survivors(tag)).toEqual([]);
    // Counting is the same for every kind: the skip path for the first of each kind only.
    if (cases.findIndex((c) => c[0] === kind) !== cases.findIndex((c) => c[1] === fault)) return;

    const skip = run('viersche', prog, 'm,random', 2, [
      '--workers',
      '1',
      '--on-bot-error',
      'skip',
      '--max-fault-share',
      '1',
      ...more,
    ]);
    // Every group faults (--at counts over a process's life and each restart starts again).
    expect(skip.r.stdout).toMatch(new RegExp(`\\nfaults: m 2 \\(${kind} 2\\), restarts [1-9]\\d*\\n`));
    const rows = skip
      .file('a.csv')
      .split('\n')
      .filter((l) => l.includes(`,faults_${kind},`) && l.includes(',m,'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toContain(',2,');
    expect(skip.r.stderr).toContain('tafel: summary written to a.csv');
    expect(survivors(tag)).toEqual([]);
  });

  it('a slow start under the start limit is no fault', () => {
    const x = run('viersche', `m=${MISBEHAVE} --fault slow-start --sleep 1`, 'm,random', 2, ['--workers', '2']);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.r.stdout).not.toContain('faults:');
  });

  it('a command that does not exist is one line, no stack', () => {
    const r = tafel(
      ['run', '--game', 'viersche', '--program', 'm=no_such_command_rt', '--bots', 'm,random', '--deals', '2'],
      tmpDir(),
    );
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^tafel: bot program m \(no_such_command_rt\): exited with status 127 .*not found/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('no bot process outlives a run', () => {
  it('after a normal end, and no FIFO directory is left', () => {
    const tag = newTag();
    const dir = tmpDir();
    const { child, done } = start(
      [
        'run',
        '--game',
        'viersche',
        '--program',
        `m=${MISBEHAVE} --tag ${tag}`,
        '--bots',
        'm,random',
        '--deals',
        '3',
        '--workers',
        '2',
      ],
      dir,
    );
    return done.then((r) => {
      expect(r.status, r.stderr).toBe(0);
      expect(survivors(tag)).toEqual([]);
      expect(fifoDirs(child.pid!)).toEqual([]);
    });
  });

  it.each([['one SIGINT'], ['two SIGINTs']])('after %s mid-run', async (how) => {
    const tag = newTag();
    const dir = tmpDir();
    const prog = `m=${MISBEHAVE} --fault slow --at 1 --sleep 0.3 --tag ${tag}`;
    const { child, done } = start(
      [
        'run',
        '--game',
        'viersche',
        '--program',
        prog,
        '--bots',
        'm,random',
        '--deals',
        '30',
        '--seed',
        'k',
        '--out',
        'a.csv',
        '--workers',
        '2',
      ],
      dir,
    );
    await waitFor(() => lineCount(join(dir, 'a.journal.jsonl')) >= 2);
    // The scans below can see what they look for: the programs and the FIFO directory are there now.
    expect(survivors(tag).length).toBeGreaterThan(0);
    expect(fifoDirs(child.pid!)).toEqual([`tafel-${child.pid}`]);
    child.kill('SIGINT');
    if (how === 'two SIGINTs') child.kill('SIGINT');
    const r = await done;
    expect(r.status, r.stderr).toBe(130);
    await waitFor(() => survivors(tag).length === 0, 3000);
    expect(fifoDirs(child.pid!)).toEqual([]);
  });

  it('after a hang killed by the move timeout and a program deaf to quit (a stop on a fault: above)', () => {
    for (const fault of ['--fault hang --at 2', '--fault deaf']) {
      const tag = newTag();
      const x = run('viersche', `m=${MISBEHAVE} ${fault} --tag ${tag}`, 'm,random', 2, [
        '--workers',
        '2',
        '--move-timeout',
        '500',
      ]);
      expect([0, 3], x.r.stderr).toContain(x.r.status);
      expect(survivors(tag), fault).toEqual([]);
    }
  });
});

describe('tafel bots and logs with a program', () => {
  it('tafel bots lists the program with its options, in text and --json', () => {
    const args = ['bots', '--program', `py=${SPEC}`, '--game', 'viersche'];
    const text = tafel(args);
    expect(text.status, text.stderr).toBe(0);
    const line = text.stdout.split('\n').findIndex((l) => /^py\b/.test(l));
    expect(line, text.stdout).toBeGreaterThanOrEqual(0);
    for (const key of ['skill', 'style', 'verbose']) expect(text.stdout).toContain(key);
    const json = tafel([...args, '--json']);
    expect(json.status, json.stderr).toBe(0);
    const s = json.stdout;
    expect(s).toContain('"py"');
    for (const key of ['"skill"', '"style"', '"verbose"']) expect(s).toContain(key);
  });

  it("a program's stderr and info lines go to its log beside --out, not to the terminal", () => {
    const x = run('viersche', `py=${SPEC}`, 'py:verbose=true,random', 2, ['--workers', '2']);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.r.stderr).not.toContain('spec_bot');
    const logs = readdirSync(x.dir).filter((f) => /^a\.py_verbose_true\.w\d+\.log$/.test(f));
    expect(logs.length, readdirSync(x.dir).join(' ')).toBeGreaterThan(0);
    const text = logs.map((f) => x.file(f)).join('');
    expect(text).toContain('spec_bot:');
    expect(text).toMatch(/info/);
  });
});
