/** Hindersche's observation in the bot protocol (PROTOCOL.md): who plays, the slate, trump, points kept. */
import { SUITS } from '../../core/french.js';
import { bySeat, trickProtocol } from '../trick/protocol.js';
import type { HinderscheView } from './view.js';

export const HINDERSCHE_PROTOCOL = trickProtocol((v: HinderscheView) => ({
  plays: bySeat(v, (s) => v.plays(s)),
  players: v.players,
  phase: v.phase,
  kind: v.kind,
  playoffFor: v.playoffFor,
  playoffPlaces: v.playoffPlaces,
  slate: bySeat(v, (s) => v.slate(s)),
  schleipfen: v.schleipfen,
  trump: SUITS[v.trump],
  turnup: v.codeName(v.turnup),
  turnupHolder: v.turnupHolder,
  turnupHeld: v.turnupHeld,
  stackSize: v.stackSize,
  offerer: v.offerer,
  seatPoints: bySeat(v, (s) => v.seatPoints(s)),
  tricksKept: bySeat(v, (s) => v.tricksKept(s)),
  trickTakers: Array.from({ length: v.trick }, (_, t) => v.trickTaker(t)),
  trickPointsSeen: v.trickPointsSeen,
}));
