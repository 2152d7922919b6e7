/**
 * Reading runs from their journals: the header is the run spec (the identity and the
 * command), and the group lines are fed to a tally and a digest exactly as the run fed
 * them, so the page shows what the run's table and summary show, plus how it got there.
 * The journals of the shards of one run are merged first, as `tafel merge` does (every
 * shard there and finished). A run's per-deal CSV, named in its spec, is read for the
 * distributions when it is there.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { findGame } from '../games/index.js';
import { RowLayout } from '../harness/run/batch.js';
import { Collector } from '../harness/run/collect.js';
import { checkLines, checkMetrics, readJournal, type GroupLine } from '../harness/run/journal.js';
import { mergeJournals, type MergeInput } from '../harness/run/merge.js';
import { shardRange } from '../harness/run/shard.js';
import { identityDifference, pathOf, type RunSpec } from '../harness/run/spec.js';
import { RunTally } from '../harness/stats/tally.js';
import type { RunData } from './data.js';
import { runDealValues } from './deal-input.js';
import { RunDigest } from './digest.js';
import { stamp } from './format.js';
import { botsOf, runData, runIdentity } from './run-data.js';

/** One run as its journals hold it: a whole run, one shard, or the shards of a run merged. */
export interface JournalRun {
  readonly spec: RunSpec;
  readonly lines: readonly GroupLine[];
  /** The journals, in shard order. */
  readonly parts: readonly MergeInput[];
}

/** The runs of `paths`: journals of one run's shards are merged, each other journal is a run of its own. */
export function readJournals(paths: readonly string[]): JournalRun[] {
  const runs: MergeInput[][] = [];
  for (const path of paths) {
    const input = { path, contents: readJournal(path) };
    const same = runs.find((r) => identityDifference(r[0].contents.spec, input.contents.spec) === null);
    if (same) same.push(input);
    else runs.push([input]);
  }
  return runs.map((parts) => {
    if (parts.length === 1) {
      const c = parts[0].contents;
      return { spec: c.spec, lines: c.lines, parts };
    }
    const merged = mergeJournals(parts);
    return { spec: merged.spec, lines: merged.lines, parts: merged.shards };
  });
}

/** The report data of a journal run; `dealCsvs` are its per-deal CSVs given by hand (else the spec's, if they exist). */
export function journalRunData(run: JournalRun, dealCsvs: readonly string[] = []): RunData {
  const { spec } = run;
  const shown = run.parts.map((p) => p.path).join(', ');
  const game = findGame(spec.game);
  if (!game) throw new TafelError('bad-input', `journal ${shown}: unknown game '${spec.game}'`);
  checkMetrics(shown, spec, game);
  const layout = RowLayout.of(game, spec.entrants.length);
  checkLines(shown, run.lines, layout);
  const tally = new RunTally(game.dealMetrics, spec.unit === 'match' ? game.matchMetrics : null, spec.entrants.length);
  const digest = new RunDigest(game, spec.entrants.length, spec.unit, spec.sprt);
  const collector = new Collector(layout, tally, { journal: null, records: null, dealCsv: null }, digest.add);
  collector.addLines(run.lines);
  const notes: string[] = [];
  const held = run.parts.map((p) => {
    const { from } = shardRange(p.contents.spec.groups, p.contents.spec.shard);
    return { from, to: from + p.contents.lines.length };
  });
  const keep = (g: number) => held.some((r) => g >= r.from && g < r.to);
  const dealValues = runDealValues(spec, game, dealFiles(run, dealCsvs), keep, notes);
  const written = Math.max(...run.parts.map((p) => statSync(p.path).mtimeMs));
  const identity = runIdentity(spec, game, {
    tally,
    skipped: collector.skipped.length,
    decided: digest.sprt?.decision != null,
    when: `journal last written ${stamp(new Date(written))}`,
    sources: [...run.parts.map((p) => p.path), ...dealCsvs],
  });
  return runData({
    identity,
    game,
    bots: botsOf(spec),
    tally,
    digest,
    sprt: spec.sprt,
    dealValues,
    notes,
  });
}

/** The run's per-deal CSVs: those given by hand, else the one each journal's spec names. */
function dealFiles(run: JournalRun, given: readonly string[]): { path: string | null; shown: string }[] {
  if (given.length) return given.map((path) => ({ path: resolve(path), shown: path }));
  return run.parts.map((p) => ({
    path: pathOf(p.contents.spec, 'dealCsv'),
    shown: p.contents.spec.files.dealCsv ?? '',
  }));
}
