/**
 * What a worker needs to play batches of a run: the `RunPlan`, plain data that can be
 * posted to a thread (bots by label and source, not by spec). Each thread resolves the
 * bots of a plan again (it has its own module registry) and keeps the player for the
 * next batch of the same plan.
 */
import { TafelError, isTafelError } from '../core/errors.js';
import type { Game, Params, TableConfig } from '../games/game.js';
import { findGame } from '../games/index.js';
import { BatchPlayer, type BatchOptions, type BatchResult } from './batch.js';
import { resolveEntrant, type Entrant, type Lineup } from './lineup.js';
import type { Unit } from './table.js';

export interface RunPlan {
  readonly game: string;
  readonly table: TableConfig;
  /** The distinct entrants: `source` is a built-in name or a module's absolute path. */
  readonly bots: readonly { readonly label: string; readonly source: string; readonly params: Params }[];
  readonly seatings: readonly (readonly number[])[];
  readonly seed: string;
  readonly unit: Unit;
  readonly options: BatchOptions;
}

export interface BatchTask {
  readonly plan: RunPlan;
  readonly start: number;
  readonly count: number;
}

export function planOf(
  game: Game,
  table: TableConfig,
  lineup: Lineup,
  seed: string,
  unit: Unit,
  options: BatchOptions,
): RunPlan {
  return {
    game: game.name,
    table,
    bots: lineup.entrants.map((e) => ({ label: e.label, source: e.source, params: e.params })),
    seatings: lineup.seatings,
    seed,
    unit,
    options,
  };
}

/**
 * The one player of the latest plan in this thread (a worker serves one run at a
 * time; the main thread too). Building it loads the bot modules, hence the promise.
 */
let current: { key: string; player: Promise<BatchPlayer> } | null = null;

export async function playTask(task: BatchTask): Promise<BatchResult> {
  const key = JSON.stringify(task.plan);
  if (current?.key !== key) current = { key, player: playerFor(task.plan) };
  let player: BatchPlayer;
  try {
    player = await current.player;
  } catch (e) {
    current = null;
    if (!isTafelError(e)) throw e;
    const failure = { code: e.code, message: e.message, group: task.start };
    return {
      start: task.start,
      done: 0,
      rows: new Float64Array(0),
      skipped: [],
      records: null,
      dealRows: null,
      journal: null,
      failure,
      ms: 0,
    };
  }
  return player.play(task.start, task.count);
}

async function playerFor(plan: RunPlan): Promise<BatchPlayer> {
  const game = findGame(plan.game);
  if (!game) throw new TafelError('unknown-game', `unknown game '${plan.game}'`);
  const entrants: Entrant[] = [];
  for (const b of plan.bots) {
    // Re-resolved here (a worker has its own module registry): by source, with the
    // parameters already parsed, and under the label the run reports.
    const { spec, source } = await resolveEntrant(b.source, game);
    entrants.push({ label: b.label, source, spec, params: b.params });
  }
  const lineup: Lineup = { entrants, base: plan.seatings[0], rotations: plan.seatings.length, seatings: plan.seatings };
  return new BatchPlayer(game, plan.table, lineup, plan.seed, plan.unit, plan.options);
}
