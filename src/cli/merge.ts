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
import { checkOutputs, writeCsv, type OutputFile, type OutputKind } from '../harness/run/outputs.js';
import { SUMMARY_COLUMNS, identityLines, renderTable, summaryRows } from '../harness/run/report.js';
import { pathOf } from '../harness/run/spec.js';
import { defaultJournal, gameNamed } from '../harness/run/parts.js';
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
  const journal = o.journal ?? (o.out ? defaultJournal(o.out) : undefined);
  const named: [string, string | undefined, string, OutputKind][] = [
    ['--out', o.out, 'summary', 'csv'],
    ['--journal', journal, 'journal', 'jsonl'],
    ['--records', o.records, 'deal records', 'jsonl'],
    ['--deal-csv', o.dealCsv, 'per-deal rows', 'csv'],
    ['--db', o.db, 'database', 'duckdb'],
  ];
  const outputs: OutputFile[] = named
    .filter((x): x is [string, string, string, OutputKind] => x[1] !== undefined)
    .map(([flag, p, , kind]) => ({ flag, kind, shown: p, path: resolve(p) }));
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
  const { tally, skipped, faults } = mergedTally(game, merged, paths.join(', '));
  const spec = {
    ...merged.spec,
    files: {
      dir: process.cwd(),
      out: o.out ?? null,
      journal: journal ?? null,
      records: o.records ?? null,
      dealCsv: o.dealCsv ?? null,
      db: o.db ?? null,
      report: null,
    },
  };
  const m = { ...merged, spec };
  if (o.records) joinShardFiles(game, m, 'records', o.records);
  if (o.dealCsv) joinShardFiles(game, m, 'dealCsv', o.dealCsv);
  if (o.db) await joinShardDatabases(game, m, resolve(o.db));
  if (journal) writeMergedJournal(journal, game, m);
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
  for (const [, p, what] of named) if (p) process.stderr.write(`tafel: ${what} written to ${shown(resolve(p))}\n`);
}
