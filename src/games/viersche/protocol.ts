/** Viersche's observation in the bot protocol (PROTOCOL.md): trump, turn-up, targets, points, claims. */
import { SUITS } from '../../core/french.js';
import { trickProtocol } from '../trick/protocol.js';
import type { VierscheView } from './view.js';

export const VIERSCHE_PROTOCOL = trickProtocol((v: VierscheView) => ({
  trump: SUITS[v.trump],
  turnup: v.codeName(v.turnup),
  turnupHeld: v.turnupHeld,
  facedown: v.facedown,
  secondDeal: v.secondDeal,
  targets: [v.target(0), v.target(1)],
  teamPoints: [v.teamPoints(0), v.teamPoints(1)],
  teamTricks: [v.teamTricks(0), v.teamTricks(1)],
  seatPoints: [0, 1, 2, 3].map((s) => v.seatPoints(s)),
  trickPointsSeen: v.trickPointsSeen,
  claimTrick: v.claimTrick,
  winner: v.winner,
  gameRungs: v.gameRungs,
}));
