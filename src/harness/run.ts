/**
 * A tournament run: play the duplicate groups in order, tally them, write the outputs.
 * If a bot fails, the groups already finished are still tallied and written, and the
 * failure is re-thrown for the CLI to report.
 */
import { seedKey } from '../core/rng.js';
import { TafelError } from '../core/errors.js';
import type { Game, TableConfig } from '../games/game.js';
import type { Lineup } from './lineup.js';
import { JsonLinesWriter, probeWritable, writeCsv } from './outputs.js';
import { SUMMARY_COLUMNS, renderTable, summaryRows, type RunInfo } from './report.js';
import { GroupTally, Table, type Unit } from './table.js';
import { RunTally } from './tally.js';

export interface RunOptions {
  game: Game;
  table: TableConfig;
  lineup: Lineup;
  seed: string;
  unit: Unit;
  /** Number of duplicate groups: deals with --deals, matches with --matches. */
  groups: number;
  /** Summary CSV path. */
  out?: string;
  /** Deal records (JSON Lines) path. */
  records?: string;
}

export interface RunResult {
  info: RunInfo;
  tally: RunTally;
  /** The readable table. */
  text: string;
  seconds: number;
  /** The failure that stopped the run early, if any (already written around). */
  failure?: TafelError;
}

export function runTournament(opts: RunOptions): RunResult {
  const { game, table, lineup, seed, unit } = opts;
  if (opts.out) probeWritable(opts.out, '--out');
  const records = opts.records ? new JsonLinesWriter(opts.records, '--records') : null;
  const batch: Record<string, unknown>[] = [];
  const plan = { game, table, lineup, seed, key: seedKey(seed), unit };
  const player = new Table(plan, records ? (r) => batch.push(r) : null);
  const E = lineup.entrants.length;
  const group = new GroupTally(E, game.dealMetrics.length, game.matchMetrics.length);
  const tally = new RunTally(game.dealMetrics, unit === 'match' ? game.matchMetrics : null, E);
  const started = performance.now();
  let failure: TafelError | undefined;
  try {
    for (let g = 0; g < opts.groups; g++) {
      group.clear();
      batch.length = 0;
      player.playGroup(g, group);
      tally.add(group);
      records?.writeBatch(batch);
    }
  } catch (e) {
    if (!(e instanceof TafelError)) throw e;
    failure = e;
  } finally {
    records?.close();
  }
  const info: RunInfo = {
    game: game.name,
    seed,
    unit,
    labels: lineup.entrants.map((e) => e.label),
    rotations: lineup.rotations,
    cheats: lineup.entrants.map((e) => e.spec.cheats === true),
  };
  if (opts.out) writeCsv(opts.out, SUMMARY_COLUMNS, summaryRows(info, tally));
  return { info, tally, text: renderTable(info, tally), seconds: (performance.now() - started) / 1000, failure };
}
