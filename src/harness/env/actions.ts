/**
 * The environment's actions (docs/env.md): one index per card of the game's pack, in a
 * fixed order that does not depend on the deal (the French games' move codes depend on
 * the trump suit; these indices do not: `Game.cardNames.pack`), then `no` and `yes`. A seat's legal moves are a
 * mask over these indices, read from the rules' own legal moves.
 */
import type { Game, TableConfig } from '../../games/game.js';

/** The card names of the pack a table plays, in action order (`Game.cardNames.pack`), each checked against the game's names. */
export function packNames(game: Game, table: TableConfig): string[] {
  const names = [...game.cardNames.pack(table)];
  for (const n of names) if (game.cardNames.code(n, 0) < 0) throw new Error(`env: ${game.name} has no card ${n}`);
  return names;
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
