/**
 * `tafel merge`: the journals of a run's shards into the results of the whole run:
 * the table, the summary CSV and a journal of the whole run, each exactly what one
 * machine playing every group would have written.
 */
import { dirname, relative, resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { readJournal } from '../harness/journal.js';
import { mergeJournals, mergedInfo, mergedTally, writeMergedJournal } from '../harness/merge.js';
import { probeWritable, writeCsv } from '../harness/outputs.js';
import { SUMMARY_COLUMNS, renderTable, summaryRows } from '../harness/report.js';
import { defaultJournal, gameNamed } from './common.js';

export interface MergeFlags {
  out?: string;
  journal?: string;
}

export function mergeCommand(paths: readonly string[], o: MergeFlags): void {
  const inputs = paths.map((path) => ({ path, contents: readJournal(path) }));
  const merged = mergeJournals(inputs);
  const game = gameNamed(merged.run.game);
  const journal = o.journal ?? (o.out ? defaultJournal(o.out) : undefined);
  for (const target of [o.out, journal]) {
    if (target !== undefined && paths.some((p) => resolve(p) === resolve(target))) {
      throw new TafelError('bad-output', `merge: ${target} is one of the journals being merged`);
    }
  }
  if (o.out) probeWritable(o.out, '--out');
  const { tally, skipped } = mergedTally(game, merged, paths.join(', '));
  const info = mergedInfo(merged.run);
  if (o.out) writeCsv(o.out, SUMMARY_COLUMNS, summaryRows(info, tally));
  if (journal) {
    const cwd = relative(dirname(resolve(journal)), process.cwd()) || '.';
    writeMergedJournal(journal, game, merged, { cwd, out: o.out ?? null, records: null, dealCsv: null });
  }
  const units = merged.run.unit === 'deal' ? 'deals' : 'matches';
  const shards = inputs.length === 1 ? '1 journal' : `${inputs.length} shards`;
  process.stdout.write(
    `${game.name}: ${tally.groups} ${units} x ${merged.run.rotations} seat rotations (${tally.deals} deals played), seed ${merged.run.seed}, merged from ${shards}\n`,
  );
  const bots = merged.run.bots;
  const seats = Array.from({ length: merged.run.seats }, (_, i) => bots[i % bots.length]).join(', ');
  process.stdout.write(`seats in rotation 0: ${seats}\n`);
  if (tally.groups > 0) process.stdout.write(`${renderTable(info, tally)}\n`);
  if (skipped)
    process.stdout.write(
      `\ndropped: ${skipped} ${units} in which a bot failed (--on-bot-error skip), left out of the results above\n`,
    );
  if (o.out) process.stdout.write(`\nsummary written to ${o.out}\n`);
  if (journal) process.stdout.write(`journal written to ${journal}\n`);
}
