/**
 * The tables of a run's database (`--db`): what each row holds, column by column. The
 * worker threads write rows in this layout (numbers, see `DbRows`) as Parquet parts and
 * the views that read the parts type them (parts.ts), so both read it from here.
 *
 *   runs      one row per run (or shard): its identity, the tafel version, start and end
 *   bots      one row per bot of a run: label, full spec, parameters
 *   boards    one row per group of a run of chosen deals (`--boards`): run, grp, the
 *             board's id, its line in the file, its deal (dealer, hands, turnup; JSON)
 *   deals     one row per deal played: run, grp, rotation, match, deal, the game's deal
 *             facts (`Game.facts.deal`), and the deal's record (JSON) with `--records`
 *   seats     one row per seat and deal: run, grp, rotation, deal, seat, bot, every deal
 *             metric, the game's seat facts (`Game.facts.seat`)
 *   matches   one row per seat and whole match (`--matches`): run, grp, rotation, match,
 *             seat, bot, every match metric
 *   faults    one row per bot's fault (a group dropped with `--on-bot-error skip`, or the
 *             failure that stopped the run): run, grp, rotation, deal, seat, bot (its
 *             label, as text), kind (programs/fault.ts), message; committed by db.ts
 *
 * A `bot` column holds the entrant's label (an ENUM of the labels of the database's
 * runs); the worker writes the entrant's index in its run, which the main thread maps.
 * `grp` is the duplicate group (`group` is an SQL keyword), `match` = grp * rotations +
 * rotation as in the deal records. A seat out of a deal (a Hindersche player who is out)
 * has NULL metrics and facts. One database holds the runs of one game (its columns
 * are that game's), each run under its number `run`, a hash of its identity: the same
 * for every shard of a run and for the run resumed, different for another run.
 */
import { createHash } from 'node:crypto';
import type { Fact, Game } from '../../games/game.js';
import type { RunSpec } from '../run/spec.js';

/** How a column is stored: numbers as the worker writes them, or text the main thread adds. */
export type ColumnType =
  'INTEGER' | 'SMALLINT' | 'TINYINT' | 'DOUBLE' | 'BOOLEAN' | { readonly enum: readonly string[] } | 'JSON';

interface Column {
  readonly name: string;
  readonly type: ColumnType;
}

/** A table whose rows the workers make: `run`, then `numbers` columns of numbers (NaN: NULL), then `text` ones. */
export interface RowTable {
  readonly name: 'deals' | 'seats' | 'matches';
  /** The columns after `run` that the worker writes as numbers, in order. */
  readonly numbers: readonly Column[];
  /** Text columns after those (the record), filled by the main thread, or none. */
  readonly text: readonly Column[];
}

export interface DbSchema {
  readonly deals: RowTable;
  readonly seats: RowTable;
  /** Null for a run of single deals. */
  readonly matches: RowTable | null;
}

function factColumn(f: Fact): Column {
  const type: ColumnType =
    f.type === 'int' ? 'INTEGER' : f.type === 'number' ? 'DOUBLE' : f.type === 'bool' ? 'BOOLEAN' : { enum: f.type };
  return { name: f.key, type };
}

/** What a database holds besides its game: matches or not, records or not, the bots' labels. */
export interface DbContents {
  readonly matches: boolean;
  readonly records: boolean;
  /** Every bot label of its runs (the values of the `bot` columns), in order of first appearance. */
  readonly labels: readonly string[];
}

/** What a database of these runs (all of one game) holds. */
export function contentsOf(specs: readonly RunSpec[]): DbContents {
  const labels: string[] = [];
  for (const s of specs) for (const e of s.entrants) if (!labels.includes(e.label)) labels.push(e.label);
  return {
    matches: specs.some((s) => s.unit === 'match'),
    records: specs.some((s) => s.files.records !== null),
    labels,
  };
}

export function schemaOf(game: Game, c: DbContents): DbSchema {
  const metric = (m: { key: string; binary?: boolean }): Column => ({
    name: m.key,
    type: m.binary ? 'TINYINT' : 'DOUBLE',
  });
  const bot: Column = { name: 'bot', type: { enum: c.labels } };
  const facts = game.facts ?? { deal: [], seat: [] };
  const deals: RowTable = {
    name: 'deals',
    numbers: [
      { name: 'grp', type: 'INTEGER' },
      { name: 'rotation', type: 'SMALLINT' },
      { name: 'match', type: 'INTEGER' },
      { name: 'deal', type: 'INTEGER' },
      ...facts.deal.map(factColumn),
    ],
    text: c.records ? [{ name: 'record', type: 'JSON' }] : [],
  };
  const seats: RowTable = {
    name: 'seats',
    numbers: [
      { name: 'grp', type: 'INTEGER' },
      { name: 'rotation', type: 'SMALLINT' },
      { name: 'deal', type: 'INTEGER' },
      { name: 'seat', type: 'SMALLINT' },
      bot,
      ...game.dealMetrics.map(metric),
      ...facts.seat.map(factColumn),
    ],
    text: [],
  };
  const matches: RowTable | null = c.matches
    ? {
        name: 'matches',
        numbers: [
          { name: 'grp', type: 'INTEGER' },
          { name: 'rotation', type: 'SMALLINT' },
          { name: 'match', type: 'INTEGER' },
          { name: 'seat', type: 'SMALLINT' },
          bot,
          ...game.matchMetrics.map(metric),
        ],
        text: [],
      }
    : null;
  for (const t of [deals, seats, matches]) {
    const names = t ? [...t.numbers, ...t.text].map((col) => col.name.toLowerCase()) : [];
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) throw new Error(`${game.name}: two columns named ${twice} in the ${t!.name} table`);
  }
  return { deals, seats, matches };
}

/** The run's number in the database: a hash of what its results depend on (the same for its shards). */
export function runNumber(spec: RunSpec): number {
  const identity = {
    game: spec.game,
    seats: spec.seats,
    rules: spec.rules,
    bots: spec.bots,
    entrants: spec.entrants,
    seatings: spec.seatings,
    seed: spec.seed,
    unit: spec.unit,
    groups: spec.groups,
    // Only runs of boards name them, so that the numbers of other runs stay as they were.
    ...(spec.boards ? { boards: spec.boards.boards } : {}),
  };
  return createHash('sha256').update(JSON.stringify(identity)).digest().readUInt32BE(0) & 0x7fffffff;
}
