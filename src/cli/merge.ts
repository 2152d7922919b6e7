/**
 * `tafel merge`: the journals of a run's shards into the results of the whole run:
 * the table, the summary CSV, a journal of the whole run and, when asked, the joined
 * deal records and per-deal CSV, each exactly what one machine playing every group
 * would have written.
 */
import { resolve } from 'node:path';
import { readJournal } from '../harness/run/journal.js';
import {
  joinShardDatabases,
  joinShardFiles,
  mergeJournals,
  mergedTally,
  writeMergedJournal,
} from '../harness/run/merge.js';
import { checkOutputs, writeCsv } from '../harness/run/outputs.js';
import { SUMMARY_COLUMNS, identityLines, renderTable, summaryRows } from '../harness/run/report.js';
import { pathOf } from '../harness/run/spec.js';
import { gameNamed, runFilesFor, runOutputs } from '../harness/run/parts.js';
import { shown } from './common.js';

export interface MergeFlags {
  out?: string;
  journal?: string;
  records?: string;
  dealCsv?: string;
  db?: string;
  force?: boolean;
}

export async function mergeCommand(paths: readonly string[], o: MergeFlags): Promise<void> {
  const inputs = paths.map((path) => ({ path, contents: readJournal(path) }));
  const merged = mergeJournals(inputs);
  const game = gameNamed(merged.spec.game);
  const files = runFilesFor(o, process.cwd());
  const outputs = runOutputs(files);
  const shardFiles = merged.shards.flatMap((x) =>
    (['records', 'dealCsv', 'db'] as const).flatMap((kind) => pathOf(x.contents.spec, kind) ?? []),
  );
  checkOutputs(outputs, {
    existing: o.force ? 'replace' : 'refuse',
    inputs: [
      { who: 'merge', what: 'one of the journals being merged', paths: merged.shards.map((x) => resolve(x.path)) },
      { who: 'merge', what: "one of the shards' own files", paths: shardFiles },
    ],
  });
  const t = mergedTally(game, merged, paths.join(', '));
  const { tally, skipped, faults } = t;
  const spec = { ...merged.spec, files };
  const m = { ...merged, spec };
  if (o.records) joinShardFiles(game, m, 'records', o.records);
  if (o.dealCsv) joinShardFiles(game, m, 'dealCsv', o.dealCsv);
  if (o.db) await joinShardDatabases(game, m, resolve(o.db));
  if (files.journal) writeMergedJournal(files.journal, m, t);
  if (o.out) writeCsv(o.out, SUMMARY_COLUMNS, summaryRows(spec, tally, null, faults));
  const units = spec.unit === 'deal' ? 'deals' : 'matches';
  const shards = inputs.length === 1 ? '1 journal' : `${inputs.length} shards`;
  const out = [
    `${game.name}: ${tally.groups} ${units} x ${spec.seatings.length} seat rotations (${tally.deals} deals played), seed ${spec.seed}, merged from ${shards}`,
    ...identityLines(spec),
  ];
  if (tally.groups > 0) out.push(renderTable(spec, tally));
  if (skipped) {
    out.push(
      '',
      `dropped: ${skipped} ${units} in which a bot failed (--on-bot-error skip), left out of the results above`,
    );
  }
  const faultsLine = faults.line(spec.entrants.map((e) => e.label));
  if (faultsLine) out.push(faultsLine);
  process.stdout.write(out.join('\n') + '\n');
  const written = {
    out: 'summary',
    journal: 'journal',
    records: 'deal records',
    dealCsv: 'per-deal rows',
    db: 'database',
  };
  for (const [key, what] of Object.entries(written) as [keyof typeof written, string][]) {
    const path = pathOf(spec, key);
    if (path) process.stderr.write(`tafel: ${what} written to ${shown(path)}\n`);
  }
}
