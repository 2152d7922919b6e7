/**
 * The pieces of parallel runs that need no game: the scheduler's ordering (results
 * arrive in any order, are delivered in group order), its failure and interrupt
 * rules, runs sharing one pool in lanes, shard ranges, and the progress line's pace.
 */
import { describe, expect, it } from 'vitest';
import type { BatchResult, Failure } from '../src/harness/run/batch.js';
import type { RunSpec } from '../src/harness/run/spec.js';
import type { BatchTask } from '../src/harness/run/task.js';
import type { Runner } from '../src/harness/run/pool.js';
import { createProgress } from '../src/harness/run/progress.js';
import { Lanes } from '../src/harness/run/lanes.js';
import { playInOrder } from '../src/harness/run/schedule.js';
import { parseShard, shardRange } from '../src/harness/run/shard.js';

const spec = {} as RunSpec;

/** A runner whose batches finish after pseudo-random delays, failing at group `failAt`. */
function fakeRunner(slots: number, failAt = -1, seed = 1): Runner & { tasks: Omit<BatchTask, 'watch' | 'programs'>[] } {
  let x = seed;
  const delay = () => ((x = (x * 1103515245 + 12345) % 2147483648) % 7) + 1;
  const tasks: Omit<BatchTask, 'watch' | 'programs'>[] = [];
  return {
    slots,
    tasks,
    run(task) {
      tasks.push(task);
      const fails = failAt >= task.start && failAt < task.start + task.count;
      const done = fails ? failAt - task.start : task.count;
      const failure: Failure | null = fails
        ? { code: 'bot-failed', message: `failed at ${failAt}`, group: failAt, fault: 'threw', entrant: 0, at: null }
        : null;
      const result: BatchResult = {
        start: task.start,
        done,
        rows: new Float64Array(done),
        skipped: [],
        records: null,
        dealRows: null,
        journal: null,
        db: null,
        restarts: null,
        failure,
        ms: done * 0.01,
        moveTime: null,
      };
      return new Promise((resolve) => setTimeout(() => resolve(result), delay()));
    },
    async close() {},
  };
}

function collect(runner: Runner, from: number, to: number, signal?: AbortSignal) {
  const seen: number[] = [];
  const end = playInOrder({
    spec,
    runner,
    from,
    to,
    signal,
    onBatch: (r) => {
      seen.push(...Array.from({ length: r.done }, (_, i) => r.start + i));
    },
  });
  return { seen, end };
}

describe('playInOrder', () => {
  it('delivers every group once, in order, whatever order the batches finish in', async () => {
    for (const seed of [1, 2, 3]) {
      const runner = fakeRunner(3, -1, seed);
      const { seen, end } = collect(runner, 5, 2000);
      expect(await end).toEqual({ end: 'done' });
      expect(seen).toEqual(Array.from({ length: 1995 }, (_, i) => 5 + i));
      // Small first batches, larger ones once the speed is known.
      expect(runner.tasks[0].count).toBeLessThanOrEqual(4);
      expect(Math.max(...runner.tasks.map((t) => t.count))).toBeGreaterThan(50);
    }
  });

  it('ends at the first failing group with exactly the groups before it, even if later batches finish first', async () => {
    for (const seed of [1, 2, 3]) {
      const { seen, end } = collect(fakeRunner(4, 1234, seed), 0, 3000);
      expect(await end).toEqual({
        end: 'failed',
        failure: { code: 'bot-failed', message: 'failed at 1234', group: 1234, fault: 'threw', entrant: 0, at: null },
      });
      expect(seen).toEqual(Array.from({ length: 1234 }, (_, i) => i));
    }
  });

  it('stops on abort with a contiguous prefix delivered', async () => {
    const controller = new AbortController();
    const { seen, end } = collect(fakeRunner(2), 0, 1_000_000, controller.signal);
    setTimeout(() => controller.abort(), 30);
    expect(await end).toEqual({ end: 'aborted' });
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i));
    expect(seen.length).toBeLessThan(1_000_000);
  });

  it('does nothing for an empty range', async () => {
    expect(await collect(fakeRunner(2), 7, 7).end).toEqual({ end: 'done' });
  });
});

describe('lanes', () => {
  it('plays runs on one pool, each delivered as alone, a lane before the next', async () => {
    const pool = fakeRunner(2, -1, 4);
    const lanes = new Lanes(pool);
    const specs = [{ bots: ['a'] }, { bots: ['b'] }, { bots: ['c'] }] as unknown as RunSpec[];
    const sizes = [700, 300, 500];
    const runs = specs.map((s, i) => {
      const seen: number[] = [];
      const end = playInOrder({
        spec: s,
        runner: lanes.lane(i),
        from: 0,
        to: sizes[i],
        onBatch: (r) => void seen.push(...Array.from({ length: r.done }, (_, k) => r.start + k)),
      });
      return { seen, end };
    });
    for (const [i, r] of runs.entries()) {
      expect(await r.end).toEqual({ end: 'done' });
      expect(r.seen).toEqual(Array.from({ length: sizes[i] }, (_, k) => k));
    }
    // The pool got each run's last batch before any batch of a later run.
    const lane = pool.tasks.map((t) => specs.indexOf(t.spec));
    for (let i = 0; i + 1 < specs.length; i++) {
      const last = pool.tasks.findIndex((t) => t.spec === specs[i] && t.start + t.count === sizes[i]);
      expect(last).toBeGreaterThanOrEqual(0);
      expect(lane.slice(0, last).some((l) => l > i)).toBe(false);
    }
    // And the next run started before the one ahead had all its batches back: no worker idle between runs.
    const firstOfSecond = lane.indexOf(1);
    expect(lane.slice(firstOfSecond).includes(0)).toBe(false);
    expect(firstOfSecond).toBeGreaterThan(0);
  });

  it("drops a closed lane's batches that the pool has not taken", async () => {
    const pool = fakeRunner(1, -1, 5);
    const lanes = new Lanes(pool);
    const [first, second] = [lanes.lane(0), lanes.lane(1)];
    const task = (start: number) => ({ spec, start, count: 1, rows: null });
    const taken = [first.run(task(0)), first.run(task(1))];
    void second.run(task(2));
    await second.close();
    await Promise.all(taken);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.tasks.map((t) => t.start)).toEqual([0, 1]);
  });
});

describe('shards', () => {
  it('split a run into contiguous ranges that cover it exactly', () => {
    for (const [groups, n] of [
      [100, 3],
      [7, 7],
      [3, 5],
      [1_000_000_007, 13],
      [2 ** 53 - 1, 1000],
    ]) {
      let next = 0;
      for (let i = 0; i < n; i++) {
        const { from, to } = shardRange(groups, { index: i, count: n });
        expect(from).toBe(next);
        expect(to).toBeGreaterThanOrEqual(from);
        next = to;
      }
      expect(next).toBe(groups);
    }
    expect(shardRange(100, null)).toEqual({ from: 0, to: 100 });
    expect(parseShard(' 2/5 ')).toEqual({ index: 2, count: 5 });
  });
});

describe('progress', () => {
  function run(tty: boolean, until: number) {
    let t = 0;
    const out: string[] = [];
    const p = createProgress({ write: (s) => out.push(s), tty, total: 10_000, before: 100, now: () => t });
    for (; t <= until; t += 10) p.update(t / 10, t);
    p.end();
    return out;
  }

  it('redraws one terminal line at most ten times a second, and clears it', () => {
    const out = run(true, 2000);
    expect(out.length).toBeLessThanOrEqual(21 + 1);
    expect(out[0]).toBe('\rtafel: 110/10000 groups, 1000 deals/s, ETA 1:39\x1b[K');
    expect(out.at(-1)).toBe('\r\x1b[K');
  });

  it('writes a plain line every ten seconds elsewhere, and nothing for a short run', () => {
    expect(run(false, 9000)).toEqual([]);
    const out = run(false, 25_000);
    expect(out).toEqual([
      `tafel: 1100/10000 groups, 1000 deals/s, ETA 1:29\n`,
      `tafel: 2100/10000 groups, 1000 deals/s, ETA 1:19\n`,
    ]);
  });
});
