/**
 * The run database (`--db`) and `tafel query`: the tables' shapes and contents (a row
 * per deal and per seat-deal, every metric's mean per bot equal to the summary's), the
 * same rows for 1 and 3 workers, after an interrupt and `--resume`, and from shards
 * (merged, or read together by `tafel query`); the macros against the harness's own
 * numbers and known values; bad input in one line with status 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, expectUserError, journalGroups, read, start, tafel, tmpDir } from './cli-helpers.js';
import { runQuery } from '../src/harness/db/query.js';
import { RatioMoments, tQuantile, wilson } from '../src/harness/stats/stats.js';

const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '60', '--seed', 'db'];

/** Every row of every table, ordered, as text (the runs row without its times and shard). */
async function contents(files: readonly string[]): Promise<string> {
  const q = async (sql: string) => JSON.stringify((await runQuery(files, sql)).rows);
  return [
    await q('SELECT run, game, seats, rules, bots, seed, unit, groups, rotations, tafel FROM runs'),
    await q('SELECT * FROM bots ORDER BY label'),
    await q('SELECT * FROM deals ORDER BY grp, rotation, deal'),
    await q('SELECT * FROM seats ORDER BY grp, rotation, deal, seat'),
  ].join('\n');
}

let one = '';
beforeAll(() => {
  one = tmpDir();
  const r = tafel([...RUN, '--workers', '1', '--out', 'x.csv', '--db', 'x.duckdb'], one);
  expect(r.status, r.stderr).toBe(0);
});

describe('the tables of a run', () => {
  it('hold a row per deal and per seat of each deal, with the game facts', async () => {
    const f = [join(one, 'x.duckdb')];
    const counts = await runQuery(f, 'SELECT (SELECT count(*) FROM deals), (SELECT count(*) FROM seats)');
    expect(counts.rows[0]).toEqual([120, 480]);
    const r = await runQuery(
      f,
      'SELECT count(DISTINCT grp), min(rotation), max(rotation), count(DISTINCT match) FROM deals',
    );
    expect(r.rows[0]).toEqual([60, 0, 1, 120]);
    // Facts hold: 36 cards, 140 points (V-3) and both jacks dealt in every deal; points taken add up.
    const facts = await runQuery(
      f,
      `SELECT grp, rotation, sum(trumps) >= 2, sum(hand_points), count_if(alt), count_if(kloei), sum(taken)
       FROM seats GROUP BY ALL HAVING NOT (sum(hand_points) = 140 AND count_if(alt) = 1 AND count_if(kloei) = 1)`,
    );
    expect(facts.rows).toEqual([]);
    // Every card point is taken in a deal played to the end (a claim stops it early, V-8).
    const taken = await runQuery(
      f,
      'SELECT DISTINCT sum(taken) FROM seats JOIN deals USING (run, grp, rotation, deal) WHERE claim_trick IS NULL GROUP BY grp, rotation',
    );
    expect(taken.rows).toEqual([[140]]);
  });

  it("give every metric's mean per bot as the summary CSV prints it", async () => {
    const summary = read(join(one, 'x.csv'))
      .split('\n')
      .filter((l) => /,deal,[a-z]+,[^,]*,,,(points|won|rungs),/.test(l))
      .map((l) => l.split(','));
    expect(summary.length).toBe(6);
    for (const row of summary) {
      const [bot, metric, mean, low, high] = [row[6], row[10], row[12], row[13], row[14]];
      const r = await runQuery(
        [join(one, 'x.duckdb')],
        `SELECT cluster_mean(v) FROM (SELECT grp, avg(${metric}) v FROM seats WHERE bot = '${bot}' GROUP BY grp)`,
      );
      const e = r.rows[0][0] as { mean: number; low: number; high: number };
      expect([e.mean.toFixed(6), e.low.toFixed(6), e.high.toFixed(6)], `${bot} ${metric}`).toEqual([mean, low, high]);
    }
  });

  it('are the same for 1 and 3 workers', async () => {
    const d = tmpDir();
    expect(tafel([...RUN, '--workers', '3', '--db', 'x.duckdb'], d).status).toBe(0);
    expect(await contents([join(d, 'x.duckdb')])).toBe(await contents([join(one, 'x.duckdb')]));
  });

  it('are the same from shards, merged or read together by tafel query', async () => {
    const d = tmpDir();
    for (let i = 0; i < 3; i++) {
      const r = tafel([...RUN, '--shard', `${i}/3`, '--out', `p${i}.csv`, '--db', `p${i}.duckdb`], d);
      expect(r.status, r.stderr).toBe(0);
    }
    const m = tafel(['merge', 'p0.journal.jsonl', 'p2.journal.jsonl', 'p1.journal.jsonl', '--db', 'all.duckdb'], d);
    expect(m.status, m.stderr).toBe(0);
    const whole = await contents([join(one, 'x.duckdb')]);
    expect(await contents([join(d, 'all.duckdb')])).toBe(whole);
    const parts = [0, 1, 2].map((i) => join(d, `p${i}.duckdb`));
    const together = await runQuery(parts, 'SELECT count(*), sum(points) FROM seats');
    const alone = await runQuery([join(one, 'x.duckdb')], 'SELECT count(*), sum(points) FROM seats');
    expect(together.rows).toEqual(alone.rows);
  });
});

describe('an interrupted run', () => {
  it('leaves a valid database holding the journal groups, which --resume completes', async () => {
    const d = tmpDir();
    // A slow bot (a busy wait per move), so that the run is still going when the signal
    // comes: the journal names groups only once the database has committed them, at least
    // every 2 s, so the run must last well beyond that on a quiet machine.
    const slow = `heuristic,${join(ROOT, 'test/fixtures/slow-bot.js')}:ms=0.3`;
    const run = ['run', '--game', 'viersche', '--bots', slow, '--deals', '1200', '--seed', 'dbr'];
    const { child, done } = start([...run, '--out', 'x.csv', '--db', 'x.duckdb', '--workers', '2'], d);
    const journal = join(d, 'x.journal.jsonl');
    const until = Date.now() + 20_000;
    while (!(existsSync(journal) && journalGroups(read(journal)) > 1) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.status, stopped.stderr).toBe(130);
    const kept = journalGroups(read(journal));
    const partial = await runQuery([join(d, 'x.duckdb')], 'SELECT count(DISTINCT grp), count(*) FROM deals');
    expect(partial.rows[0]).toEqual([kept, 2 * kept]);
    const resumed = tafel(['run', '--resume', 'x.journal.jsonl'], d);
    expect(resumed.status, resumed.stderr).toBe(0);
    const w = tmpDir();
    expect(tafel([...run, '--db', 'x.duckdb'], w).status).toBe(0);
    expect(await contents([join(d, 'x.duckdb')])).toBe(await contents([join(w, 'x.duckdb')]));
  });
});

describe('the macros', () => {
  it('wilson equals stats.wilson', async () => {
    const r = await runQuery([join(one, 'x.duckdb')], 'SELECT wilson(3, 10), wilson(0, 5), wilson(7, 7)');
    for (const [i, [k, n]] of [
      [3, 10],
      [0, 5],
      [7, 7],
    ].entries()) {
      const w = wilson(k, n);
      const got = r.rows[0][i] as { rate: number; low: number; high: number };
      expect(got.rate).toBeCloseTo(w.mean, 12);
      expect(got.low).toBeCloseTo(w.low, 12);
      expect(got.high).toBeCloseTo(w.high, 12);
    }
    // Known values (Newcombe 1998, method 3): 81/263 -> [0.2553, 0.3662].
    const known = (await runQuery([join(one, 'x.duckdb')], 'SELECT wilson(81, 263)')).rows[0][0] as {
      low: number;
      high: number;
    };
    expect([known.low.toFixed(4), known.high.toFixed(4)]).toEqual(['0.2553', '0.3662']);
  });

  it('t95 equals stats.tQuantile, and cluster_rate is the ratio estimator over groups', async () => {
    const t = await runQuery([join(one, 'x.duckdb')], 'SELECT t95(1), t95(2), t95(9), t95(100)');
    expect(t.rows[0].map((x) => Number(x).toFixed(10))).toEqual([1, 2, 9, 100].map((df) => tQuantile(df).toFixed(10)));
    // Three groups: 1/4, 2/4, 3/4 -> r = 0.5, residuals (k - r n) / mean(n) = -0.25, 0, 0.25.
    const r = await runQuery(
      [join(one, 'x.duckdb')],
      'SELECT cluster_rate(k, n) FROM (VALUES (1, 4), (2, 4), (3, 4)) v(k, n)',
    );
    const e = r.rows[0][0] as { n: number; rate: number; low: number; high: number };
    const half = (tQuantile(2) * 0.25) / Math.sqrt(3);
    expect(e.n).toBe(3);
    expect(e.rate).toBe(0.5);
    expect(e.low).toBeCloseTo(Math.max(0, 0.5 - half), 12);
    expect(e.high).toBeCloseTo(Math.min(1, 0.5 + half), 12);
  });
});

type Interval = {
  n: number;
  rate: number;
  low: number | null;
  high: number | null;
  bound: number | null;
  note: string | null;
};

/** Six decimals, as the summary CSV prints; '' for none. */
const six = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '' : x.toFixed(6);

describe('the macros with NULLs and degenerate samples', () => {
  it('cluster_rate counts a NULL k or n as 0 in every aggregate, as stats.RatioMoments does', async () => {
    const groups: [number | null, number | null][] = [
      [null, 4],
      [2, 4],
      [null, 4],
      [1, 4],
      [3, 4],
      [null, null],
      [0, 4],
    ];
    const values = groups.map(([k, n]) => `(${k ?? 'NULL'}, ${n ?? 'NULL'})`).join(', ');
    const r = await runQuery([join(one, 'x.duckdb')], `SELECT cluster_rate(k, n) FROM (VALUES ${values}) v(k, n)`);
    const got = r.rows[0][0] as Interval;
    const m = new RatioMoments();
    for (const [k, n] of groups) m.add(k ?? 0, n ?? 0);
    const e = m.estimate();
    expect(got.n).toBe(7);
    expect([six(got.rate), six(got.low), six(got.high)]).toEqual([six(e.mean), six(e.low), six(e.high)]);
  });

  it('say "no interval" (NULL low and high, a note, the Wilson bound over groups) where the sample gives none', async () => {
    const q = async (sql: string) => (await runQuery([join(one, 'x.duckdb')], sql)).rows[0][0] as Interval;
    const all = await q('SELECT cluster_rate(4, 4) FROM range(20)');
    expect(all).toMatchObject({ n: 20, rate: 1, low: null, high: null, note: 'all' });
    expect(six(all.bound)).toBe(six(wilson(20, 20).low));
    // No events at all: NULL counts (count_if over NULL comparisons) are none, not a [0, 1] interval.
    const none = await q(
      'SELECT cluster_rate(CASE WHEN range < 20 THEN NULL ELSE 0 END, CASE WHEN range < 20 THEN 4 ELSE 0 END) FROM range(23)',
    );
    expect(none).toMatchObject({ n: 20, rate: 0, low: null, high: null, note: 'none' });
    expect(six(none.bound)).toBe(six(wilson(0, 20).high));
    expect(await q('SELECT cluster_rate(1, 4)')).toMatchObject({ n: 1, low: null, high: null, note: 'few' });
    // Two rubbers at 50%: no spread, no interval (it printed [50.00, 50.00]).
    const same = await q('SELECT cluster_rate(k, n) FROM (VALUES (1, 2), (3, 6)) v(k, n)');
    expect(same).toMatchObject({ n: 2, rate: 0.5, low: null, high: null, note: 'no-spread' });
    const alike = await q('SELECT cluster_mean(x) FROM (VALUES (1), (1), (NULL), (1)) v(x)');
    expect(alike).toMatchObject({ n: 3, mean: 1, low: null, high: null, note: 'no-spread' });
    expect(await q('SELECT cluster_mean(2.5)')).toMatchObject({ n: 1, low: null, high: null, note: 'few' });
  });

  it('docs/database.md example 5 (claims, NULL k in many groups) equals stats.RatioMoments on the same groups', async () => {
    const f = [join(one, 'x.duckdb')];
    const perGroup = `SELECT s.bot, s.grp, count_if(d.claim_seat = s.seat) AS k, count(*) AS n
      FROM seats s JOIN deals d USING (run, grp, rotation, deal) GROUP BY ALL`;
    const groups = (await runQuery(f, `${perGroup} ORDER BY bot, grp`)).rows as [
      string,
      number,
      number | null,
      number,
    ][];
    expect(groups.some((g) => g[2] === null)).toBe(true);
    const r = await runQuery(f, `SELECT bot, cluster_rate(k, n) FROM (${perGroup}) GROUP BY bot ORDER BY bot`);
    for (const [bot, got] of r.rows as [string, Interval][]) {
      const m = new RatioMoments();
      for (const [b, , k, n] of groups) if (b === bot) m.add(k ?? 0, n);
      const e = m.estimate();
      expect(got.n, bot).toBe(60);
      expect([six(got.rate), six(got.low), six(got.high)], bot).toEqual([six(e.mean), six(e.low), six(e.high)]);
    }
  });

  it("the marches query (count_if(d.marcher = s.seat), NULL where nobody marched) equals the summary's march_rate", async () => {
    const d = tmpDir();
    const run = ['run', '--game', 'hindersche', '--bots', 'heuristic,random', '--deals', '400', '--seed', 'm'];
    const played = tafel([...run, '--out', 'h.csv', '--db', 'h.duckdb'], d);
    expect(played.status, played.stderr).toBe(0);
    const f = [join(d, 'h.duckdb')];
    const perGroup = `SELECT s.bot, s.grp, count_if(d.marcher = s.seat) AS k, count(*) AS n
      FROM seats s JOIN deals d USING (run, grp, rotation, deal) WHERE s.plays GROUP BY ALL`;
    const nulls = await runQuery(f, `SELECT count(*) FILTER (k IS NULL) FROM (${perGroup})`);
    expect(Number(nulls.rows[0][0])).toBeGreaterThan(0);
    const r = await runQuery(f, `SELECT bot, cluster_rate(k, n) FROM (${perGroup}) GROUP BY bot ORDER BY bot`);
    const summary = read(join(d, 'h.csv'))
      .split('\n')
      .filter((l) => l.includes(',march_rate,'))
      .map((l) => l.split(','));
    expect(summary.length).toBe(2);
    for (const [bot, got] of r.rows as [string, Interval][]) {
      const row = summary.find((x) => x[6] === bot)!;
      expect([String(got.n), six(got.rate), six(got.low), six(got.high)], bot).toEqual([
        row[11],
        row[12],
        row[13],
        row[14],
      ]);
    }
  });
});

describe('bad input', () => {
  it('a file that is not a database, an SQL error, a missing file: one line, status 2', () => {
    const d = tmpDir();
    writeFileSync(join(d, 'not.duckdb'), 'hello, world\n');
    expectUserError(tafel(['query', 'not.duckdb', 'SELECT 1'], d), /not\.duckdb: not a DuckDB database/);
    expectUserError(tafel(['query', join(one, 'x.duckdb'), 'SELEC 1']), /^tafel: query: Parser Error: syntax error/);
    expectUserError(
      tafel(['query', join(one, 'x.duckdb'), 'SELECT nothing FROM seats']),
      /^tafel: query: Binder Error/,
    );
    expectUserError(tafel(['query', 'missing.duckdb', 'SELECT 1'], d), /missing\.duckdb: no such file/);
    expectUserError(tafel(['query', 'SELECT 1'], d), /give one or more database files, then the SQL/);
  });

  it('prints an aligned table, CSV or JSON', () => {
    const sql = 'SELECT bot, count(*) AS n FROM seats GROUP BY bot ORDER BY bot';
    const f = join(one, 'x.duckdb');
    expect(tafel(['query', f, sql]).stdout).toBe(
      'bot          n\n---------  ---\nheuristic  240\nrandom     240\n(2 rows)\n',
    );
    expect(tafel(['query', f, sql, '--csv']).stdout).toBe('bot,n\nheuristic,240\nrandom,240\n');
    expect(JSON.parse(tafel(['query', '--json', f, sql]).stdout)).toEqual([
      { bot: 'heuristic', n: 240 },
      { bot: 'random', n: 240 },
    ]);
  });

  it('a run refuses to overwrite a database unless --force', () => {
    expectUserError(tafel([...RUN, '--db', 'x.duckdb'], one), /--db x\.duckdb: the file exists/);
    const before = readFileSync(join(one, 'x.duckdb'));
    expect(before.length).toBeGreaterThan(0);
  });
});
