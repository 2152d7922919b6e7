/**
 * Reading runs from their journals: the header is the run spec (the identity and the
 * command). A journal of format 3 holds checkpoints (journal.ts): the last one's tally
 * is the run's, so the page shows what the run's table and summary show, and its
 * running means and SPRT walk have a point per checkpoint; per-group distributions are
 * not in it (they come from the per-deal CSV, or a run database). A format-2 journal's
 * group lines are fed to a tally and a digest exactly as the run fed them.
 * The journals of the shards of one run are merged first, as `tafel merge` does (every
 * shard there and finished). A run's per-deal CSV, named in its spec, is read for the
 * distributions when it is there.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { findGame } from '../games/index.js';
import { checkMetrics, groupsDone, readJournal } from '../harness/run/journal.js';
import { journalState, mergeJournals, type MergeInput } from '../harness/run/merge.js';
import { shardRange } from '../harness/run/shard.js';
import { identityDifference, pathOf, type RunSpec } from '../harness/run/spec.js';
import { RunTally } from '../harness/stats/tally.js';
import type { RunData } from './data.js';
import { dealCsvGroups, runDealValues } from './deal-input.js';
import { RunDigest } from './digest.js';
import { stamp } from './format.js';
import { botsOf, runData, runIdentity } from './run-data.js';

/** One run as its journals hold it: a whole run, one shard, or the shards of a run merged. */
export interface JournalRun {
  readonly spec: RunSpec;
  /** Groups (played or skipped) the journals hold. */
  readonly groups: number;
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
    const groups = (xs: readonly MergeInput[]) => xs.reduce((n, x) => n + groupsDone(x.contents), 0);
    if (parts.length === 1) return { spec: parts[0].contents.spec, groups: groups(parts), parts };
    const merged = mergeJournals(parts);
    return { spec: merged.spec, groups: groups(merged.shards), parts: merged.shards };
  });
}

/** The report data of a journal run; `dealCsvs` are its per-deal CSVs given by hand (else the spec's, if they exist). */
export function journalRunData(run: JournalRun, dealCsvs: readonly string[] = []): RunData {
  const { spec } = run;
  const shown = run.parts.map((p) => p.path).join(', ');
  const game = findGame(spec.game);
  if (!game) throw new TafelError('bad-input', `journal ${shown}: unknown game '${spec.game}'`);
  checkMetrics(shown, spec, game);
  const newTally = () =>
    new RunTally(game.dealMetrics, spec.unit === 'match' ? game.matchMetrics : null, spec.entrants.length);
  const tally = newTally();
  const digest = new RunDigest(game, spec.entrants.length, spec.unit, spec.sprt);
  let skipped = 0;
  let checkpoints = false;
  for (const p of run.parts) {
    const c = p.contents;
    if (c.version === 3) {
      const { from } = shardRange(c.spec.groups, c.spec.shard);
      const to = from + groupsDone(c);
      const csv = pathOf(c.spec, 'dealCsv');
      if (spec.unit === 'deal' && csv !== null && existsSync(csv)) {
        // A run of deals: its per-deal CSV gives back every group, as the run saw them.
        const labels = spec.entrants.map((e) => e.label);
        dealCsvGroups(csv, c.spec.files.dealCsv ?? csv, labels, (g) => g >= from && g < to, digest.add);
      } else {
        checkpoints = true;
        // The run's state at each checkpoint: the shards before this one, finished, and this one so far.
        for (const cp of c.checkpoints) {
          const at = newTally();
          at.merge(tally);
          const part = newTally();
          try {
            part.restore(cp.tally);
          } catch {
            throw new TafelError(
              'bad-journal',
              `journal ${p.path}: its checkpoint after ${cp.groups} groups does not fit the run's bots and metrics (a corrupt journal)`,
            );
          }
          at.merge(part);
          digest.addCheckpoint(at, cp.sprt);
        }
      }
    }
    const state = journalState(game, c, shown, c.version === 2 ? digest.add : null);
    tally.merge(state.tally);
    skipped += state.skipped.length;
  }
  const notes: string[] = [];
  if (checkpoints)
    notes.push(
      'The journal keeps the run’s state at its checkpoints, not each group, and the run has no per-deal CSV of its deals to give them back: running means have a point per checkpoint, and per-group distributions are not drawn.',
    );
  const held = run.parts.map((p) => {
    const { from } = shardRange(p.contents.spec.groups, p.contents.spec.shard);
    return { from, to: from + groupsDone(p.contents) };
  });
  const keep = (g: number) => held.some((r) => g >= r.from && g < r.to);
  const dealValues = runDealValues(spec, game, dealFiles(run, dealCsvs), keep, notes);
  const written = Math.max(...run.parts.map((p) => statSync(p.path).mtimeMs));
  const identity = runIdentity(spec, game, {
    tally,
    skipped,
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
