/**
 * Duplicate play of two bots for the experiments that compare them (ladder, versus):
 * the groups of a lineup played in this thread, and each group's values kept, so that
 * comparisons can be paired across runs on the same cards (every run of one seed deals
 * group g the same cards), which the harness's summary does not allow.
 *
 * The first two entrants of the lineup are compared: per group, the first's mean over
 * its seats minus the second's, per metric, oriented so that positive is better for the
 * first. Each entrant's `act` calls are timed (wall time, forced moves included).
 */
import { TafelError } from '../src/core/errors.js';
import type { BotSpec } from '../bots/bot.js';
import { resolveParams } from '../src/games/params.js';
import type { Game, Metric } from '../src/games/game.js';
import { BatchPlayer, RowLayout } from '../src/harness/batch.js';
import { resolveLineup, type Lineup } from '../src/harness/lineup.js';
import { liveRunOf } from '../src/harness/spec.js';
import { Moments, type Estimate } from '../src/harness/stats.js';
import type { Unit } from '../src/harness/table.js';

/** Wall time of a bot's decisions. */
export interface Clock {
  ms: number;
  moves: number;
}

export interface Played {
  /** Per metric (the unit's, in order), per group: first minus second, oriented; NaN where a group does not count. */
  diffs: Float64Array[];
  /** Seat-deals (or seat-matches) the first entrant won and played, for a binary `won` metric. */
  won: { successes: number; trials: number } | null;
}

/** Wrap a spec so that its `act` calls are timed into `clock`. */
function timed(spec: BotSpec, clock: Clock): BotSpec {
  return {
    ...spec,
    create(ctx) {
      const bot = spec.create(ctx);
      return {
        act(obs, legal, count) {
          const t = performance.now();
          const move = bot.act(obs, legal, count);
          clock.ms += performance.now() - t;
          clock.moves++;
          return move;
        },
      };
    },
  };
}

/**
 * Play `groups` duplicate groups of `bots` (a `--bots` text) from group 0, timing the
 * first two entrants into `clocks`. A bot failure is a `bot-failed` error.
 */
export async function playPaired(
  game: Game,
  seats: number,
  bots: string,
  unit: Unit,
  groups: number,
  seed: string,
  clocks: readonly [Clock, Clock],
): Promise<Played> {
  const table = { seats, rules: resolveParams(game.variants, {}, 'experiment') };
  game.checkTable(table);
  const base: Lineup = await resolveLineup(bots, game, seats);
  const lineup: Lineup = {
    ...base,
    entrants: base.entrants.map((e, i) => (i < 2 ? { ...e, spec: timed(e.spec, clocks[i]) } : e)),
  };
  const metrics: readonly Metric[] = unit === 'match' ? game.matchMetrics : game.dealMetrics;
  const k = metrics.length;
  const player = new BatchPlayer(liveRunOf({ game, table, lineup, seed, unit, groups }));
  const layout = RowLayout.of(game, lineup.entrants.length);
  const group = layout.newGroup();
  const diffs = metrics.map(() => new Float64Array(groups).fill(NaN));
  const wonAt = metrics.findIndex((m) => m.key === 'won' && m.binary);
  const won = wonAt >= 0 ? { successes: 0, trials: 0 } : null;
  for (let g = 0; g < groups; g += 100) {
    const r = player.play(g, Math.min(100, groups - g));
    if (r.failure) throw new TafelError('bot-failed', `${bots}: ${r.failure.message}`);
    for (let i = 0; i < r.done; i++) {
      layout.read(r.rows, i, group);
      const sums = unit === 'match' ? group.matchSums : group.dealSums;
      const counts = unit === 'match' ? group.matchCounts : group.dealCounts;
      if (counts[0] === 0 || counts[1] === 0) continue;
      for (let m = 0; m < k; m++) {
        const d = sums[m] / counts[0] - sums[k + m] / counts[1];
        diffs[m][g + i] = metrics[m].higherIsBetter ? d : -d;
      }
      if (won) {
        won.successes += sums[wonAt];
        won.trials += counts[0];
      }
    }
  }
  return { diffs, won };
}

/** The mean of the values that are not NaN, with its Student-t 95% interval. */
export function meanOf(values: Float64Array): Estimate {
  const m = new Moments();
  for (const v of values) if (!Number.isNaN(v)) m.add(v);
  return m.estimate();
}
