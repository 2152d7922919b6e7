/**
 * Card names for bot authors and tools: a move code of a deal and the card's name in
 * RECORD.md (`10H`, `JD`; `T22`, `KC` in Vier-Anderle), both ways, by the game's name
 * (each game names its cards: `Game.cardNames`). A French game lays its cards out by
 * the deal's trump (lane 0 is the trump suit in order of strength), so there a code
 * names a card only together with the trump suit (0..3, C S H D: the observation's
 * `trump`); Vier-Anderle's codes are fixed.
 */
import { TafelError } from '../core/errors.js';
import { HIDDEN, NO, YES, type Game } from './game.js';
import { GAMES, findGame } from './index.js';

/**
 * The name of move `code` in a deal of `game` (a game's name, `ctx.game.name`) whose
 * trump suit is `trump`: a card's RECORD.md name, `yes` or `no` for the answers, `??`
 * for a card not seen (`HIDDEN`), `code N (no card)` for a number that is none of these.
 */
export function codeName(game: string, code: number, trump = 0): string {
  if (code === YES) return 'yes';
  if (code === NO) return 'no';
  if (code === HIDDEN) return '??';
  return known(game).cardNames.name(code, trump);
}

/** The move code of the card named `name` (RECORD.md) in a deal of `game` with trump suit `trump`; -1 if the pack has no such card. */
export function cardCode(game: string, name: string, trump = 0): number {
  return known(game).cardNames.code(name, trump);
}

function known(name: string): Game {
  const game = findGame(name);
  if (!game)
    throw new TafelError('unknown-game', `unknown game '${name}' (known: ${GAMES.map((g) => g.name).join(', ')})`);
  return game;
}
