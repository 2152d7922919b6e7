/**
 * Faults by kind (src/harness/programs/fault.ts): a module bot's failures are counted per
 * bot and kind in every output of a run (the table's faults line, the summary CSV, the
 * database, the journal), kept by --resume (old journals' lines too) and by merge; and a
 * bot that fails too often is withdrawn, in group order, whatever the workers.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, journalGroups, journalState, read, results, tafel, tmpDir } from './cli-helpers.js';
import { runQuery } from '../src/harness/db/query.js';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', name);

const faultRows = (csv: string) => csv.split('\n').filter((l) => l.startsWith('viersche,') && l.includes(',faults,'));
const skippedLines = (journal: string) => journal.split('\n').filter((l) => l.includes('"skipped"'));

function run(bots: string, deals: number, more: string[] = [], dir = tmpDir()) {
  const r = tafel(
    [
      'run',
      '--game',
      'viersche',
      '--bots',
      bots,
      '--deals',
      String(deals),
      '--seed',
      'f',
      '--on-bot-error',
      'skip',
      '--out',
      'a.csv',
      ...more,
    ],
    dir,
  );
  return { r, dir, file: (f: string) => read(join(dir, f)) };
}

describe('fault kinds', () => {
  it.each([
    ['threw', `t=${fixture('throwing-bot.js')},random`, [] as string[]],
    ['illegal', `t=${fixture('illegal-bot.js')},random`, []],
    ['time', `t=${fixture('slow-bot.js')}:ms=40,random`, ['--move-timeout', '10']],
    ['time', `t=${fixture('hang-bot.js')},random`, ['--move-timeout', '200']],
  ])("a bot's %s fault is counted in the table, summary, journal and database", async (kind, bots, more) => {
    const x = run(bots, 2, ['--max-fault-share', '1', '--db', 'a.duckdb', '--workers', '1', ...more]);
    expect(x.r.stdout).toContain(`faults: t 2 (${kind} 2)\n`);
    expect(x.r.stdout).toContain('dropped: 2 deals in which a bot failed');
    const rows = faultRows(x.file('a.csv'));
    expect(rows).toHaveLength(2 * 7);
    expect(rows.find((l) => l.includes(`,t,`) && l.includes(`,faults_${kind},`))).toContain(`,2,2.000000,,,count,`);
    expect(rows.filter((l) => /,[1-9]\d*\.000000,/.test(l))).toHaveLength(1);
    const skipped = skippedLines(x.file('a.journal.jsonl')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(skipped.map((l) => [l.g, l.fault, l.entrant])).toEqual([
      [0, kind, 0],
      [1, kind, 0],
    ]);
    const db = await runQuery(
      [join(x.dir, 'a.duckdb')],
      'SELECT grp, bot, kind, seat, message FROM faults ORDER BY grp',
    );
    expect(db.rows.map((r) => r.slice(0, 3))).toEqual([
      [0, 't', kind],
      [1, 't', kind],
    ]);
    expect(db.rows[0][4]).toBe(skipped[0].skipped);
  });

  it('a run without faults writes the summary it wrote before (no fault rows, no faults line)', () => {
    const x = run('heuristic,random', 3, ['--workers', '1']);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(faultRows(x.file('a.csv'))).toEqual([]);
    expect(x.r.stdout).not.toContain('faults:');
  });
});

describe('fault counts over resumes and merges', () => {
  const bots = `f=${fixture('flaky-bot.js')}:rate=0.15,random`;
  const whole = run(bots, 40, ['--max-fault-share', '1', '--workers', '1']);

  it('the whole run had faults to count', () => {
    expect(whole.r.status, whole.r.stderr).toBe(0);
    expect(whole.r.stdout).toMatch(/\nfaults: f \d+ \(threw \d+\)\n/);
    expect(skippedLines(whole.file('a.journal.jsonl')).length).toBeGreaterThanOrEqual(3);
  });

  /** The whole run's journal cut back to its header and `keep` lines, with `edit` applied to each line, resumed. */
  const resumed = (keep: number, edit: (line: string) => string = (l) => l) => {
    const dir = tmpDir();
    const lines = whole.file('a.journal.jsonl').split('\n');
    writeFileSync(
      join(dir, 'a.journal.jsonl'),
      [
        lines[0],
        ...lines
          .slice(1, 1 + keep)
          .filter((l) => l !== '')
          .map(edit),
      ].join('\n') + '\n',
    );
    writeFileSync(join(dir, 'a.csv'), '');
    const r = tafel(['run', '--resume', 'a.journal.jsonl', '--workers', '1', '--max-fault-share', '1'], dir);
    return { r, file: (f: string) => read(join(dir, f)) };
  };

  it('--resume restores the counts of the groups before it', () => {
    const x = resumed(30);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.file('a.csv')).toBe(whole.file('a.csv'));
    expect(results(x.r).replace(/, resumed after \d+ groups/, '')).toBe(results(whole.r));
    expect(journalState(x.file('a.journal.jsonl'))).toBe(journalState(whole.file('a.journal.jsonl')));
  });

  it("a journal's skipped lines written before faults had kinds still resume, counted by their message", () => {
    const old = (l: string) => (l.includes('"skipped"') ? l.replace(/,"fault".*}$/, '}') : l);
    expect(old(skippedLines(whole.file('a.journal.jsonl'))[0])).toMatch(/^\{"g":\d+,"skipped":"[^"]+"\}$/);
    const x = resumed(40, old);
    expect(x.r.status, x.r.stderr).toBe(0);
    expect(x.file('a.csv')).toBe(whole.file('a.csv'));
    expect(x.r.stdout).toContain(whole.r.stdout.split('\n').find((l) => l.startsWith('faults:')));
  });

  it('tafel merge of shards adds the counts', () => {
    const dir = tmpDir();
    for (const i of [0, 1]) {
      const r = tafel(
        ['run', '--game', 'viersche', '--bots', bots, '--deals', '40', '--seed', 'f', '--on-bot-error', 'skip'].concat([
          '--max-fault-share',
          '1',
          '--shard',
          `${i}/2`,
          '--journal',
          `s${i}.jsonl`,
          '--workers',
          '1',
        ]),
        dir,
      );
      expect(r.status, r.stderr).toBe(0);
    }
    const m = tafel(['merge', 's0.jsonl', 's1.jsonl', '--out', 'a.csv'], dir);
    expect(m.status, m.stderr).toBe(0);
    expect(read(join(dir, 'a.csv'))).toBe(whole.file('a.csv'));
    expect(m.stdout).toContain(whole.r.stdout.split('\n').find((l) => l.startsWith('faults:')));
  });
});

describe('--max-fault-share', () => {
  const bots = `f=${fixture('flaky-bot.js')}:rate=0.15,random`;
  const all = run(bots, 60, ['--max-fault-share', '1', '--workers', '1']);

  /** The first group at which f had 3 or more dropped groups and more than `share` of the groups so far. */
  const expectedStop = (share: number) => {
    const dropped = new Set(skippedLines(all.file('a.journal.jsonl')).map((l) => (JSON.parse(l) as { g: number }).g));
    let failed = 0;
    for (let g = 0; g < 60; g++) {
      if (!dropped.has(g)) continue;
      failed++;
      if (failed >= 3 && failed > share * (g + 1)) return { g, failed };
    }
    return null;
  };

  it('withdraws a bot after the first group where it failed too often, the same for 1 and 3 workers', () => {
    const stop = expectedStop(0.1);
    expect(stop, 'the flaky bot must fail often enough in this run').not.toBeNull();
    const one = run(bots, 60, ['--workers', '1']);
    const three = run(bots, 60, ['--workers', '3']);
    for (const x of [one, three]) {
      expect(x.r.status).toBe(3);
      const lines = x.r.stderr.trim().split('\n');
      const last = lines[lines.length - 1];
      expect(last).toMatch(
        new RegExp(
          `^tafel: bot f withdrawn: it failed in ${stop!.failed} of ${stop!.g + 1} groups \\(more than 10%, --max-fault-share 0\\.1\\); first fault: bot f at seat \\d threw flaked .*; continue with: tafel run --resume a\\.journal\\.jsonl`,
        ),
      );
      expect(journalGroups(x.file('a.journal.jsonl'))).toBe(stop!.g + 1);
    }
    expect(three.file('a.csv')).toBe(one.file('a.csv'));
    expect(results(three.r)).toBe(results(one.r));
    const body = (j: string) => journalState(j).slice(journalState(j).indexOf('\n'));
    expect(body(three.file('a.journal.jsonl'))).toBe(body(one.file('a.journal.jsonl')));
  });

  it('a resumed run withdraws the bot again when it fails again', () => {
    const stop = expectedStop(0.1)!;
    const x = run(bots, 60, ['--workers', '1']);
    const again = tafel(['run', '--resume', 'a.journal.jsonl', '--workers', '2'], x.dir);
    expect(again.status).toBe(3);
    const m = /tafel: bot f withdrawn: it failed in (\d+) of (\d+) groups/.exec(again.stderr);
    expect(m, again.stderr).not.toBeNull();
    expect(Number(m![1])).toBe(stop.failed + 1);
    expect(Number(m![2])).toBeGreaterThan(stop.g + 1);
  });

  it('is off at 1 and with --on-bot-error stop', () => {
    expect(all.r.status, all.r.stderr).toBe(0);
    const stopped = tafel(
      ['run', '--game', 'viersche', '--bots', bots, '--deals', '60', '--seed', 'f', '--workers', '1'],
      tmpDir(),
    );
    expect(stopped.stderr).not.toContain('withdrawn');
    expect(stopped.stderr).toMatch(/threw flaked/);
  });

  it('refuses a share outside 0 to 1 in one line', () => {
    const r = run(bots, 5, ['--max-fault-share', '1.5']);
    expect(r.r.status).not.toBe(0);
    expect(r.r.stderr).toMatch(/--max-fault-share must be a share from 0 to 1/);
  });
});
