/**
 * Outputs that must not mislead (issue 32): a file of another kind is named with the
 * command that takes it, a run that measured nothing fails, every SQL statement is run,
 * a database a run is writing says so, an output's name matches what it holds, and
 * every error line has the one prefix `tafel:`.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { FIGURES } from '../experiments/figures.js';
import { ROOT, expectUserError, read, tafel, tmpDir } from './cli-helpers.js';

/** A small run with a database and records, in a directory of its own. */
function smallRun(): string {
  const dir = tmpDir();
  const r = tafel(
    [
      'run',
      '--game',
      'viersche',
      '--bots',
      'heuristic,random',
      '--deals',
      '4',
      '--out',
      'r.csv',
      '--records',
      'r.jsonl',
      '--db',
      'r.duckdb',
    ],
    dir,
  );
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

describe('tafel report refuses what it cannot draw', () => {
  it("an experiment's CSV without its plan beside it: it names the plan and the command that writes it", () => {
    const dir = tmpDir();
    copyFileSync(join(ROOT, 'results/versus-hindersche.csv'), join(dir, 'versus-hindersche.csv'));
    const r = tafel(['report', 'versus-hindersche.csv', '--out', 'v.html'], dir);
    expectUserError(
      r,
      /^tafel: report: versus-hindersche\.csv is none of what a report reads: .*\(versus-hindersche\.plan\.json is missing: tafel experiment NAME --plan-only writes it\)$/,
    );
  });

  it('a records file is named as one, with the command that shows it', () => {
    const dir = smallRun();
    const r = tafel(['report', 'r.jsonl', '--out', 'p.html'], dir);
    expectUserError(
      r,
      /^tafel: report: r\.jsonl is a file of deal records \(RECORD\.md\), which a report does not draw: .*tafel replay --records r\.jsonl --match M$/,
    );
  });
});

describe("a report page's time is the one the results recorded", () => {
  it("an experiment's: from its Markdown, never the CSV's file time (a checkout's)", () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'with.md'), '# A ladder\n\nResults written 2026-01-02 03:04 UTC.\n');
    for (const name of ['with', 'without']) {
      copyFileSync(join(ROOT, 'results/ladder-viersche.csv'), join(dir, `${name}.csv`));
      const plan = { plan: 1, name, question: 'A ladder', tables: [{ name: 'ladder' }], figures: FIGURES.ladder };
      writeFileSync(join(dir, `${name}.plan.json`), JSON.stringify(plan));
      const r = tafel(['report', `${name}.csv`, '--out', `${name}.html`], dir);
      expect(r.status, r.stderr).toBe(0);
    }
    expect(read(join(dir, 'with.html'))).toContain('results written 2026-01-02 03:04 UTC');
    const without = read(join(dir, 'without.html'));
    expect(without).toContain('not recorded with the results');
    expect(without).not.toMatch(/last written/);
  });
});

describe('a file of the wrong kind names what it is and the command that takes it', () => {
  it('run --resume of a tuning journal points to tune --resume', () => {
    const dir = tmpDir();
    const t = tafel(
      [
        'tune',
        '--game',
        'viersche',
        '--bot',
        'heuristic',
        '--tune',
        'cash',
        '--iterations',
        '1',
        '--pairs',
        '1',
      ].concat(['--out', 't.csv', '--workers', '1']),
      dir,
    );
    expect(t.status, t.stderr).toBe(0);
    expectUserError(
      tafel(['run', '--resume', 't.journal.jsonl'], dir),
      /^tafel: resume file t\.journal\.jsonl: the journal of a tuning, not of a run \(continue it with tafel tune --resume t\.journal\.jsonl\)$/,
    );
  });

  it("the report of an unfinished tuning's journal says its values are partial", () => {
    const dir = tmpDir();
    const args = ['--game', 'viersche', '--bot', 'heuristic', '--tune', 'cash', '--iterations', '3', '--pairs', '1'];
    const t = tafel(['tune', ...args, '--out', 't.csv', '--workers', '1'], dir);
    expect(t.status, t.stderr).toBe(0);
    // The journal as a tuning stopped after its second iteration leaves it.
    const journal = read(join(dir, 't.journal.jsonl')).split('\n');
    writeFileSync(join(dir, 'cut.journal.jsonl'), journal.slice(0, 3).join('\n') + '\n');
    const r = tafel(['report', 'cut.journal.jsonl', '--out', 'cut.html'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(join(dir, 'cut.html'))).toMatch(
      /partial: heuristic:\S+ \(after 2 of 3 iterations: not a finished tuning\)/,
    );
  });

  it('run --resume of a records file points to replay', () => {
    const dir = smallRun();
    expectUserError(
      tafel(['run', '--resume', 'r.jsonl'], dir),
      /^tafel: resume file r\.jsonl: a file of deal records \(RECORD\.md\), not a journal \(show a deal of it with tafel replay --records r\.jsonl --match M\)$/,
    );
  });
});

describe('outputs are named as what they hold', () => {
  it('--db ask.csv --force is refused before anything is written, and the CSV is kept', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'ask.csv'), 'a,b\n1,2\n');
    const r = tafel(
      ['run', '--game', 'viersche', '--bots', 'random', '--deals', '2', '--db', 'ask.csv', '--force'],
      dir,
    );
    expectUserError(r, /^tafel: --db ask\.csv: the name must end \.duckdb or \.db \(the file is a DuckDB database\)$/);
    expect(read(join(dir, 'ask.csv'))).toBe('a,b\n1,2\n');
  });

  it.each([
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--out', 'x.txt'],
      /^tafel: --out x\.txt: the name must end \.csv/,
    ],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--records', 'x.csv'],
      /^tafel: --records x\.csv: the name must end \.jsonl/,
    ],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--report', 'x.csv'],
      /^tafel: --report x\.csv: the name must end \.html/,
    ],
    [
      ['report', 'results/ladder-viersche.csv', '--out', 'x.csv'],
      /^tafel: --out x\.csv: the name must end \.html or \.htm/,
    ],
  ])('refuses %j', (args, pattern) => {
    expectUserError(tafel(args, tmpDir()), pattern);
  });
});

describe('a run that measured nothing fails', () => {
  it('--on-bot-error skip that drops every group exits 3, not 0 with an empty table', () => {
    const r = tafel(
      ['run', '--game', 'viersche', '--bots', './test/fixtures/throwing-bot.js,random', '--deals', '3'].concat([
        '--on-bot-error',
        'skip',
        '--workers',
        '1',
      ]),
    );
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /\ntafel: every one of the 3 groups was dropped \(--on-bot-error skip\): no results; the first failure: bot \S+ at seat \d threw boom/,
    );
  });
});

describe('tafel query', () => {
  it('runs every statement and prints each result', () => {
    const dir = smallRun();
    const r = tafel(['query', 'r.duckdb', 'SELECT 1 AS a; SELECT count(*) AS n FROM deals'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('a\n-\n1\n(1 row)\n\nn\n-\n8\n(1 row)\n');
  });

  it('refuses several statements with --csv or --json, and empty SQL, in one line', () => {
    const dir = smallRun();
    expectUserError(
      tafel(['query', 'r.duckdb', 'SELECT 1; SELECT 2', '--json'], dir),
      /^tafel: query: --json prints one result, but the SQL has 2 statements: give one$/,
    );
    expectUserError(tafel(['query', 'r.duckdb', ' ; '], dir), /^tafel: query: no SQL statement given$/);
  });

  it('says that a run is writing a database it cannot open, not that it is no database', async () => {
    const dir = smallRun();
    // This process holds the database open for writing, as a running run does.
    const instance = await DuckDBInstance.create(join(dir, 'r.duckdb'));
    const connection = await instance.connect();
    try {
      const r = tafel(['query', 'r.duckdb', 'SELECT count(*) FROM deals'], dir);
      expectUserError(
        r,
        new RegExp(
          `^tafel: query: r\\.duckdb: a run is writing it \\(process ${process.pid} holds its lock\\), and DuckDB lets nothing else open it meanwhile: ask it when the run has ended`,
        ),
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

describe('messages', () => {
  it("the option parser's errors begin with tafel:, as tafel's own do", () => {
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'random', '--bogus']),
      /^tafel: unknown option '--bogus'/,
    );
    expectUserError(tafel(['replay', '--records', 'x.jsonl']), /^tafel: required option '--match <m>' not specified/);
  });

  it('--sprt with one bot says one bot', () => {
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'random,random', '--sprt', 'elo0=0,elo1=5']),
      /^tafel: --sprt compares two bots, but --bots names one bot$/,
    );
  });

  it('run --help gives the default size of a run', () => {
    const r = tafel(['run', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('without --deals or --matches, 1000 deals');
  });
});
