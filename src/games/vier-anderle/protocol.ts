/** Vier-Anderle's observation in the bot protocol (PROTOCOL.md): the pot, declarations, tricks taken. */
import { bySeat, trickProtocol } from '../trick/protocol.js';
import type { AnderleView } from './view.js';

export const ANDERLE_PROTOCOL = trickProtocol((v: AnderleView) => ({
  pips: v.pips,
  potType: v.type,
  potBefore: v.potBefore,
  pot: v.pot,
  declared: bySeat(v, (s) => v.declared(s)),
  players: v.players,
  ledSuit: v.ledSuit,
  seatTricks: bySeat(v, (s) => v.seatTricks(s)),
  delta: bySeat(v, (s) => v.delta(s)),
}));
