/**
 * Board files (`--boards`, docs/boards.md): chosen deals, one JSON object a line, each
 * played as one duplicate group in every seat rotation. A line gives a board's hands
 * and deal facts (`dealer`, `turnup`); a RECORD.md deal record is a board too (its
 * play is ignored). Every board is checked by its game (`Game.checkBoard`) before
 * anything is played, and the first bad one is told in one line that names the file,
 * the line and the board.
 */
import { readFileSync } from 'node:fs';
import { TafelError } from '../../core/errors.js';
import type { BoardDeal, Game, TableConfig } from '../../games/game.js';

/** A board as a run keeps it (in its spec, so in its journal): plain data. */
export interface Board extends BoardDeal {
  /** The board's `id`, or its number in the file counting from 1. */
  readonly id: string;
  /** Its line in the file, from 1. */
  readonly line: number;
}

/** The boards of a run and the file they came from (as typed, relative to the run's directory). */
export interface BoardSet {
  readonly file: string;
  readonly boards: readonly Board[];
}

/**
 * The boards of the file at `path` (`shown` is how messages name it) for a table of
 * `game`, every one checked; throws a TafelError naming the first bad line.
 */
export function readBoards(path: string, shown: string, game: Game, table: TableConfig): Board[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TafelError('bad-board', `cannot read --boards ${shown}: ${(e as Error).message.split('\n')[0]}`);
  }
  const boards: Board[] = [];
  const lineOfId = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i].trim();
    if (source === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (e) {
      throw new TafelError('bad-board', `${shown}:${line}: not JSON (${(e as Error).message})`);
    }
    if (!isObject(value)) throw new TafelError('bad-board', `${shown}:${line}: not a JSON object`);
    // A record of a later seat rotation repeats the deal of rotation 0.
    if (typeof value.rotation === 'number' && value.rotation > 0) continue;
    const id =
      typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : String(boards.length + 1);
    const bad = (what: string): never => {
      throw new TafelError('bad-board', `${shown}:${line} (board ${id}): ${what}`);
    };
    const board = boardOf(value, id, line, bad);
    if (value.game !== undefined && value.game !== game.name)
      bad(`a board of ${typeof value.game === 'string' ? value.game : JSON.stringify(value.game)}, not ${game.name}`);
    const twice = lineOfId.get(id);
    if (twice !== undefined) bad(`board id ${id} is also on line ${twice}`);
    lineOfId.set(id, line);
    const problem = game.checkBoard(table, board);
    if (problem !== null) bad(problem);
    boards.push(board);
  }
  if (boards.length === 0) throw new TafelError('bad-board', `--boards ${shown} holds no boards`);
  return boards;
}

function boardOf(v: Record<string, unknown>, id: string, line: number, bad: (what: string) => never): Board {
  const hands = v.hands;
  if (!Array.isArray(hands) || !hands.every((h) => Array.isArray(h) && h.every((c) => typeof c === 'string')))
    bad('"hands" must be a list of hands by seat, each a list of card names');
  const dealer = v.dealer ?? 0;
  if (typeof dealer !== 'number') bad('"dealer" must be a seat number');
  const turnup = v.turnup ?? null;
  if (turnup !== null && typeof turnup !== 'string') bad('"turnup" must be a card name');
  return { id, line, dealer, hands, turnup };
}

/** The boards of a spec read back from a journal: the shape checked, or null. */
export function boardSetFrom(v: unknown): BoardSet | null {
  if (!isObject(v) || typeof v.file !== 'string' || !Array.isArray(v.boards)) return null;
  const ok = (v.boards as unknown[]).every(
    (b) =>
      isObject(b) &&
      typeof b.id === 'string' &&
      typeof b.line === 'number' &&
      typeof b.dealer === 'number' &&
      Array.isArray(b.hands) &&
      (b.turnup === null || typeof b.turnup === 'string'),
  );
  return ok ? (v as unknown as BoardSet) : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
