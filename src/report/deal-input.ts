/**
 * Reading a per-deal CSV (`--deal-csv`: one row per seat of every deal, in the order
 * the run played them: group, rotation, deal, seat). It gives the distributions of the
 * deal metrics per bot, and, when it is all there is of a run, each group's sums
 * rebuilt exactly as the run tallied them (the same values added in the same order), so
 * that the deal section of its report is the run's.
 *
 * Read line by line: a million-deal run's file is hundreds of megabytes. The CSV is
 * tafel's own, so a line without a quote is split at its commas; one with a quote (a
 * label that needed quoting) goes through csv-parse.
 */
import { existsSync, statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import type { Game } from '../games/game.js';
import { findGame } from '../games/index.js';
import { dealColumns } from '../harness/run/batch.js';
import { forEachLine } from '../harness/run/journal-file.js';
import type { RunSpec } from '../harness/run/spec.js';
import { GroupTally } from '../harness/table/table.js';
import { RunTally } from '../harness/stats/tally.js';
import type { RunData } from './data.js';
import { RunDigest } from './digest.js';
import { stamp, whole } from './format.js';
import { ValueCounts } from './histogram.js';
import { runData, type DealValues } from './run-data.js';

/** The first columns of every per-deal CSV; the game's deal metrics follow. */
const FIXED = ['game', 'seed', 'group', 'rotation', 'match', 'deal', 'seat', 'bot'];
const METRICS_AT = FIXED.length;

export function isDealCsvHeader(columns: readonly string[]): boolean {
  return FIXED.every((c, i) => columns[i] === c);
}

interface DealCsvOptions {
  /** The run's labels in entrant order, when its journal is known; else the first group's, in order of appearance. */
  readonly labels?: readonly string[];
  /** Which groups to count (those the journal holds); all without it. */
  readonly keep?: (group: number) => boolean;
  /** Sees each group's sums, in group order. */
  readonly onGroup?: (group: GroupTally) => void;
}

interface DealCsv {
  readonly game: Game;
  readonly seed: string;
  readonly labels: readonly string[];
  readonly seats: number;
  readonly rotations: number;
  /** Whether any match had more than one deal (a `--matches` run). */
  readonly matches: boolean;
  readonly groups: number;
  readonly deals: number;
  /** values[metric][entrant]: every seat-deal's value. */
  readonly values: readonly (readonly ValueCounts[])[];
}

/** Read `path` (shown as `shown`), counting values and, with `onGroup`, rebuilding the groups. */
function readDealCsv(path: string, shown: string, o: DealCsvOptions = {}): DealCsv {
  const bad = (line: number, why: string): never => {
    throw new TafelError('bad-input', `per-deal CSV ${shown}: line ${line}: ${why}`);
  };
  const labels = o.labels ?? firstLabels(path, shown);
  const index = new Map(labels.map((l, i) => [l, i]));
  let game = null as Game | null;
  let seed = '';
  let header: string[] = [];
  let metrics = 0;
  let values: ValueCounts[][] = [];
  let group: GroupTally | null = null;
  let current = -1;
  let groups = 0;
  let deals = 0;
  let seats = 0;
  let rotations = 0;
  let matches = false;
  let lastDeal = { group: -1, rotation: '', deal: '' };
  const flush = () => {
    if (group && current >= 0) o.onGroup?.(group);
    group?.clear();
  };
  eachRow(path, shown, (f, line) => {
    if (line === 1) {
      header = f;
      metrics = f.length - METRICS_AT;
      return;
    }
    if (!game) {
      game = findGame(f[0]) ?? bad(line, `unknown game '${f[0]}'`);
      const expected = dealColumns(game).slice(METRICS_AT);
      if (header.slice(METRICS_AT).join() !== expected.join())
        bad(1, `not the deal metrics of ${game.name} (${expected.join(', ')})`);
      seed = f[1];
      values = Array.from({ length: metrics }, () => labels.map(() => new ValueCounts()));
      group = new GroupTally(labels.length, metrics, 0);
    } else if (f[0] !== game.name || f[1] !== seed) {
      bad(line, `a row of another run (game ${f[0]}, seed ${f[1]})`);
    }
    const g = Number(f[2]);
    if (!Number.isSafeInteger(g) || g < 0) bad(line, `group '${f[2]}' is not a group number`);
    if (o.keep && !o.keep(g)) return;
    if (g !== current) {
      if (g < current) bad(line, `group ${g} after group ${current}: rows out of order`);
      flush();
      current = g;
      groups++;
    }
    const e = index.get(f[7]) ?? bad(line, `bot '${f[7]}' is not a bot of this run`);
    if (g !== lastDeal.group || f[3] !== lastDeal.rotation || f[5] !== lastDeal.deal) {
      deals++;
      group!.deals++;
      lastDeal = { group: g, rotation: f[3], deal: f[5] };
    }
    seats = Math.max(seats, Number(f[6]) + 1);
    rotations = Math.max(rotations, Number(f[3]) + 1);
    if (f[5] !== '0') matches = true;
    // A seat that took no part in the deal has empty cells; the run leaves it out of its bot's means.
    if (f[METRICS_AT] === '') return;
    for (let m = 0; m < metrics; m++) {
      const cell = f[METRICS_AT + m];
      const x = Number(cell);
      if (cell === '' || !Number.isFinite(x)) bad(line, `'${cell}' is not a number`);
      values[m][e].add(x);
      group!.dealSums[e * metrics + m] += x;
    }
    group!.dealCounts[e]++;
  });
  flush();
  if (!game) throw new TafelError('bad-input', `per-deal CSV ${shown}: no rows, so no game or bots to report`);
  return { game, seed, labels, seats, rotations, matches, groups, deals, values };
}

/** The groups of a run's per-deal CSV that `keep` says, to `onGroup` in order (a run of deals: its deal metrics are all its group holds). */
export function dealCsvGroups(
  path: string,
  shown: string,
  labels: readonly string[],
  keep: (group: number) => boolean,
  onGroup: (group: GroupTally) => void,
): void {
  readDealCsv(path, shown, { labels, keep, onGroup });
}

/**
 * The values of a run's deal metrics from its per-deal CSVs (one per shard), counting
 * only the groups `keep` says; null, with a note, when the run wrote none or one is gone.
 */
export function runDealValues(
  spec: RunSpec,
  game: Game,
  files: readonly { readonly path: string | null; readonly shown: string }[],
  keep: (group: number) => boolean,
  notes: string[],
): DealValues | null {
  if (files.length === 0 || files.some((f) => f.path === null)) return null;
  const missing = files.find((f) => !existsSync(f.path!));
  if (missing) {
    notes.push(`The run's per-deal CSV ${missing.shown} is not there, so the distributions are of group means.`);
    return null;
  }
  const labels = spec.entrants.map((e) => e.label);
  const values = game.dealMetrics.map(() => labels.map(() => new ValueCounts()));
  for (const f of files) {
    const read = readDealCsv(f.path!, f.shown, { labels, keep });
    if (read.game.name !== spec.game || read.seed !== spec.seed)
      throw new TafelError(
        'bad-input',
        `per-deal CSV ${f.shown} is of another run (game ${read.game.name}, seed ${read.seed})`,
      );
    read.values.forEach((perBot, m) =>
      perBot.forEach((counts, e) => counts.counts.forEach((n, x) => values[m][e].add(x, n))),
    );
  }
  return values;
}

/** The run a per-deal CSV is of: its game, seed and bots (read from its first group). */
export function dealCsvHead(path: string, shown: string): { game: string; seed: string; labels: string[] } {
  let game = '';
  let seed = '';
  const labels = firstLabels(path, shown, (f) => {
    game = f[0];
    seed = f[1];
  });
  return { game, seed, labels };
}

/** The labels of the first group's rows, in order of appearance: every bot plays in every group. */
function firstLabels(path: string, shown: string, onFirst?: (cells: string[]) => void): string[] {
  const labels: string[] = [];
  let first: string | null = null;
  eachRow(path, shown, (f, line) => {
    if (line === 1) return;
    if (first === null) {
      first = f[2];
      onFirst?.(f);
    }
    if (f[2] !== first) return false;
    if (!labels.includes(f[7])) labels.push(f[7]);
  });
  return labels;
}

/**
 * Each complete row's cells with its line number (the header is line 1 and is checked
 * here); `f` returns false to stop. A last row without its newline (a write cut short)
 * is left out, as the run would replay it.
 */
function eachRow(path: string, shown: string, f: (cells: string[], line: number) => boolean | void): void {
  let line = 0;
  let width = 0;
  forEachLine(path, 'per-deal CSV', (text, _end, complete) => {
    line++;
    if (!complete && line > 1) return;
    const cells = text.includes('"') ? parse(text)[0] : text.split(',');
    if (line === 1) {
      if (!isDealCsvHeader(cells))
        throw new TafelError(
          'bad-input',
          `per-deal CSV ${shown}: not a tafel per-deal CSV (its header is not --deal-csv's)`,
        );
      width = cells.length;
    } else if (cells.length !== width) {
      throw new TafelError(
        'bad-input',
        `per-deal CSV ${shown}: line ${line}: ${cells.length} cells, expected ${width}`,
      );
    }
    return f(cells, line);
  });
}

/**
 * A run known only by its per-deal CSV (a run without --out): its deal section rebuilt
 * group by group from the rows, with what the file cannot say (rules, parameters, match
 * metrics, the command) named in a note.
 */
export function dealCsvRunData(path: string): RunData {
  const head = dealCsvHead(path, path);
  const game = findGame(head.game);
  if (!game) throw new TafelError('bad-input', `per-deal CSV ${path}: unknown game '${head.game}'`);
  const { labels } = head;
  const tally = new RunTally(game.dealMetrics, null, labels.length);
  const digest = new RunDigest(game, labels.length, 'deal', null);
  const read = readDealCsv(path, path, {
    labels,
    onGroup: (g) => {
      tally.add(g);
      digest.add(g);
    },
  });
  const units = read.matches ? 'matches' : 'deals';
  const rotations = `${read.rotations} seat rotation${read.rotations === 1 ? '' : 's'}`;
  const facts: [string, string][] = [
    ['game', `${game.name}: ${game.title}`],
    ['players', String(read.seats)],
    ['bots', labels.join(', ')],
    ['seed', read.seed],
    ['size', `${whole(read.groups)} duplicate ${units} (groups) × ${rotations}, ${whole(read.deals)} deals played`],
    ['time', `per-deal CSV last written ${stamp(statSync(path).mtime)}`],
  ];
  return runData({
    identity: {
      title: `${game.name}: ${labels.join(', ')}, ${whole(read.groups)} ${units}, seed ${read.seed}`,
      facts,
      command: null,
      sources: [path],
    },
    game,
    bots: labels.map((label) => ({ label, cheats: false })),
    tally,
    digest,
    sprt: null,
    dealValues: read.values,
    notes: [
      'A per-deal CSV holds the deal metrics of every seat only: the rules, the bots’ parameters (and whether one cheats), the match metrics and the command that plays the run again are in the run’s journal.',
    ],
  });
}
