/**
 * The environment's actions (docs/env.md): one index per card of the game's pack, in a
 * fixed order that does not depend on the deal (the French games' move codes depend on
 * the trump suit; these indices do not), then `no` and `yes`. A seat's legal moves are a
 * mask over these indices, read from the rules' own legal moves.
 */
import { SUITS } from '../../core/french.js';
import type { Game, Json, TableConfig } from '../../games/game.js';
import { Rng } from '../../core/rng.js';

const FRENCH_RANKS = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;
const FACES = ['K', 'Q', 'C', 'J'] as const;

/**
 * The card names of the pack a table plays, in action order: the French games' 36
 * cards suit by suit (C S H D), 6 to A; Vier-Anderle's tarocks T1..T22, then each
 * suit's K Q C J, then (with pips) 10 9 8 7 of the black suits and 1 2 3 4 of the red.
 */
export function packNames(game: Game, table: TableConfig): string[] {
  let names: string[];
  if (game.name === 'vier-anderle') {
    names = Array.from({ length: 22 }, (_, i) => `T${i + 1}`);
    for (const s of SUITS) for (const f of FACES) names.push(f + s);
    if (hasPips(game, table)) {
      for (const s of ['C', 'S']) for (const r of ['10', '9', '8', '7']) names.push(r + s);
      for (const s of ['H', 'D']) for (const r of ['1', '2', '3', '4']) names.push(r + s);
    }
  } else {
    names = [];
    for (const s of SUITS) for (const r of FRENCH_RANKS) names.push(r + s);
  }
  for (const n of names) if (game.cardNames.code(n, 0) < 0) throw new Error(`env: ${game.name} has no card ${n}`);
  return names;
}

/** Whether this table's pack has pip cards (Vier-Anderle's `pips`, `auto` resolved): as a deal of it says. */
function hasPips(game: Game, table: TableConfig): boolean {
  const state = game.newState(table);
  game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(state, new Rng([1, 2, 3, 4]));
  const pips: Json | undefined = game.protocol.encode(state.observe(0)).pips;
  return pips === true;
}

/** Action names (the pack, then `no`, `yes`) and the way from a name to its index. */
export class Actions {
  readonly names: readonly string[];
  private readonly index = new Map<string, number>();

  constructor(pack: readonly string[]) {
    this.names = [...pack, 'no', 'yes'];
    this.names.forEach((n, i) => this.index.set(n, i));
  }

  /** The index of move `name` (a card name, `no`, `yes`), or -1. */
  of(name: string): number {
    return this.index.get(name) ?? -1;
  }
}
