/**
 * The lines tafel sends a bot program (PROTOCOL.md), built one way for the referee
 * (client.ts) and the protocol tests, so that what the tests check is what runs send.
 */
import { setSelect } from '../../core/cardset.js';
import type { Game, Observation, TableConfig } from '../../games/game.js';

/** The protocol's version (PROTOCOL.md). */
export const PROTOCOL_VERSION = 1;

/** Which deal of the run a seat's deal is: duplicate group, rotation of the bots, deal in the group. */
export interface DealSite {
  readonly group: number;
  readonly rotation: number;
  readonly deal: number;
}

/** The handshake: `tafel`. */
export function helloRequest(game: Game, table: TableConfig): string {
  return JSON.stringify({
    type: 'tafel',
    protocol: PROTOCOL_VERSION,
    game: game.name,
    players: table.seats,
    rules: table.rules,
  });
}

/** The start of a seat's deal: `deal`, with the seat's seed (32 hex digits) and observation. */
export function dealRequest(game: Game, site: DealSite, seed: string, obs: Observation): string {
  const { group, rotation, deal } = site;
  return JSON.stringify({ type: 'deal', group, rotation, deal, seed, ...game.protocol.encode(obs) });
}

/** The names of the `count` legal moves in `legal` (lane 0), into `out` (cleared first). */
export function legalNames(game: Game, obs: Observation, legal: Int32Array, count: number, out: string[]): string[] {
  out.length = 0;
  for (let k = 0; k < count; k++) out.push(game.protocol.moveName(obs, setSelect(legal, 0, k)));
  return out;
}

/** A decision of the seat: `move`, with its observation and the legal moves by name. */
export function moveRequest(game: Game, obs: Observation, names: readonly string[]): string {
  return JSON.stringify({ type: 'move', ...game.protocol.encode(obs), legal: names });
}

/** The end of the seat's deal: `result`, with its observation at the end. */
export function resultRequest(game: Game, obs: Observation): string {
  return JSON.stringify({ type: 'result', ...game.protocol.encode(obs) });
}
