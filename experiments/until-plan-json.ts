/**
 * Until playPlan takes PlannedRun JSON (i34-exp): plays the JSON runs of experiment.ts
 * through plan.ts's `playPlan`, which still takes live runs (a game, a table). The
 * built-in experiments import `playPlan` from here; at the merge it goes, and they
 * import plan.ts's.
 */
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import type { PlannedRun } from './experiment.js';
import { playPlan as playLive, type PlanOptions, type PlannedRun as LiveRun } from './plan.js';

function live(r: PlannedRun): LiveRun {
  const game = findGame(r.game)!;
  const table = {
    seats: r.players ?? game.defaultSeats,
    rules: resolveParams(game.variants, r.rules ?? {}, `run ${r.name}`),
  };
  return { ...r, game, table };
}

export function playPlan(runs: readonly PlannedRun[], o: PlanOptions): Promise<string[]> {
  return playLive(runs.map(live), o);
}
