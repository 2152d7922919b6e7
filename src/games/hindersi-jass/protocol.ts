/** Hindersi-Jass's observation in the bot protocol (PROTOCOL.md): trump, turn-up, points and tricks, the Partie. */
import { SUITS } from '../../core/french.js';
import { bySeat, trickProtocol } from '../trick/protocol.js';
import type { JassView } from './view.js';

export const JASS_PROTOCOL = trickProtocol((v: JassView) => ({
  trump: SUITS[v.trump],
  turnup: v.codeName(v.turnup),
  turnupHeld: v.turnupHeld,
  seatPoints: bySeat(v, (s) => v.seatPoints(s)),
  seatTricks: bySeat(v, (s) => v.seatTricks(s)),
  allTricks: v.allTricks,
  charged: bySeat(v, (s) => v.charged(s)),
  trickPointsSeen: v.trickPointsSeen,
  partieDeal: v.partieDeal,
  partieDeals: v.partieDeals,
  partieTotals: bySeat(v, (s) => v.partieTotal(s)),
}));
