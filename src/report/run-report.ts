/**
 * The report of a run just played (`tafel run --report`): drawn from the tally and the
 * digest the run fed group by group, and from the per-deal CSV it wrote, so that it is
 * the page `tafel report` draws from the run's journal, except for how the time is told.
 */
import type { Game } from '../games/game.js';
import { pathOf, type RunSpec } from '../harness/run/spec.js';
import type { RunTally } from '../harness/stats/tally.js';
import { runDealValues } from './deal-input.js';
import type { RunDigest } from './digest.js';
import { stamp } from './format.js';
import { writeReport } from './page.js';
import { botsOf, runData, runIdentity } from './run-data.js';

export interface PlayedRun {
  readonly spec: RunSpec;
  readonly game: Game;
  readonly tally: RunTally;
  readonly digest: RunDigest;
  /** Groups dropped after a bot failed in them. */
  readonly skipped: number;
  /** Seconds of play in this session, and the groups a resumed run had before it. */
  readonly seconds: number;
  readonly resumed: number;
}

/** Write the run's report to its `files.report`; returns the page's size in bytes. */
export function writeRunReport(run: PlayedRun): number {
  const { spec, game, tally, digest } = run;
  const path = pathOf(spec, 'report')!;
  const now = new Date();
  const session = run.resumed ? ` (this session, after ${run.resumed} groups resumed)` : '';
  const notes: string[] = [];
  const dealCsv = pathOf(spec, 'dealCsv');
  const dealValues = runDealValues(
    spec,
    game,
    dealCsv ? [{ path: dealCsv, shown: spec.files.dealCsv! }] : [],
    () => true,
    notes,
  );
  const identity = runIdentity(spec, game, {
    tally,
    skipped: run.skipped,
    decided: digest.sprt?.decision != null,
    when: `played in ${run.seconds.toFixed(1)} s${session}, ended ${stamp(now)}`,
    sources: [],
  });
  const data = runData({ identity, game, bots: botsOf(spec), tally, digest, sprt: spec.sprt, dealValues, notes });
  return writeReport(path, [data], { made: now });
}
