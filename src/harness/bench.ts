/**
 * Raw throughput: the same play loop as a run (real engine, real bot interface),
 * with nothing tallied or written, timed as a whole.
 */
import { seedKey } from '../core/rng.js';
import type { Game, TableConfig } from '../games/game.js';
import type { Lineup } from './lineup.js';
import { GroupTally, Table } from './table.js';

export interface BenchResult {
  deals: number;
  seconds: number;
  dealsPerSecond: number;
}

export function benchDeals(game: Game, table: TableConfig, lineup: Lineup, seed: string, deals: number): BenchResult {
  const player = new Table({ game, table, lineup, seed, key: seedKey(seed), unit: 'deal' });
  const group = new GroupTally(lineup.entrants.length, game.dealMetrics.length, game.matchMetrics.length);
  const groups = Math.ceil(deals / lineup.rotations);
  const started = performance.now();
  let played = 0;
  for (let g = 0; g < groups; g++) {
    group.clear();
    player.playGroup(g, group);
    played += group.deals;
  }
  const seconds = (performance.now() - started) / 1000;
  return { deals: played, seconds, dealsPerSecond: played / seconds };
}
