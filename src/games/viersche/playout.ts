/**
 * The solver's greedy playout (bots/solver/solver.ts, `playoutMove`) of a Viersche deal
 * on bare hand masks: what `VierscheState.greedyPlayout` (game.ts, "Search support")
 * gives the solver. Most of a horizon search's time (pimc's, the oracle's) goes to these
 * playouts, and played through the state each card costs `searchMoves`, the generic
 * scoring through the `State` interface and `apply`; here a card is one bit cleared.
 *
 * The same choices, move for move: the legal cards of `legal` (V-4's trump lead in the
 * first trick and its face-down lead, V-5), one card of each run of interchangeable
 * ones (the lowest, as `searchMoves`), scored as `playoutMove` scores them, the first
 * best in code order; claims answered NO, each counted as a move, as the solver's
 * playout applies and counts them. Module scratch, no allocation.
 */
import { LANES } from '../../core/cardset.js';
import {
  BEST,
  BEST_SEAT,
  DECISION,
  HANDS,
  HIST,
  LED,
  PLIES,
  POS,
  TAKEN,
  TO_MOVE,
  TRICK,
  TRICK_WORTH,
} from '../trick/layout.js';
import { Decision } from '../game.js';
import { POINTS, STRENGTH, TRUMP_LANE } from './cards.js';

const SEATS = 4;
const TRICKS = 9;
/** The points of the pack (V-3): none are ever out of play. */
const PACK_POINTS = 140;
/** Below every score: the start of the search for the best. */
const LOWEST = -(1 << 30);
/** Cap of a lead's history score (so that history * 64 + bit stays a small integer), as `playoutMove`'s. */
const LEAD_HISTORY_CAP = (1 << 22) - 1;

const HAND = new Int32Array(SEATS * LANES);
/** By lane: every card still in a hand or in the current trick (what `searchMoves` calls live). */
const LIVE = new Int32Array(LANES);
/** Cards of the current trick, by lane: they leave `LIVE` with the trick. */
const TRICK_CARDS = new Int32Array(LANES);
const TAKEN_BY = new Int32Array(SEATS);

/**
 * From the state `m` (layout.ts) of a Viersche deal whose teams need `target0` and
 * `target1` points: play the deal out, every seat taking the greedy playout's card
 * (`inSide`, `maximizer` and `history` as the solver holds them: seat * 128 + code).
 * `out[0]`: the points the seats with `inSide[seat] === 1` hold at the end; `out[1]`:
 * the moves made (cards and claim answers).
 *
 * With `after` (a card, not -1, that completes the current trick) the solver's last
 * step before its horizon as well: `after` is played and the trick taken first, then
 * `out[2]` gets the claim questions answered after it (0 or 1) and, as the solver's
 * search of that trick boundary would, the playout runs only when the side's points
 * there (`base`) and all still in play (`top`) leave the window (`alpha`, `beta`) open:
 * else `out[0]` is `top` (at or below alpha) or `base` (at or above beta), and `out[1]`
 * is 0. After the last trick `out[0]` is the side's points. `out[1]` never counts
 * `after` or the claim answer after it.
 */
export function greedyPlayout(
  m: Int32Array,
  target0: number,
  target1: number,
  inSide: Uint8Array,
  maximizer: Uint8Array,
  history: Int32Array,
  out: Int32Array,
  after = -1,
  alpha = 0,
  beta = 0,
): void {
  for (let i = 0; i < SEATS * LANES; i++) HAND[i] = m[HANDS + i];
  for (let s = 0; s < SEATS; s++) TAKEN_BY[s] = m[TAKEN + s];
  TRICK_CARDS[0] = TRICK_CARDS[1] = TRICK_CARDS[2] = TRICK_CARDS[3] = 0;
  let pos = m[POS];
  const plies = m[PLIES];
  for (let ply = plies - pos; ply < plies; ply++) {
    const c = m[HIST + ply] & 0xff;
    TRICK_CARDS[c >>> 5] |= 1 << (c & 31);
  }
  for (let lane = 0; lane < LANES; lane++)
    LIVE[lane] = HAND[lane] | HAND[LANES + lane] | HAND[2 * LANES + lane] | HAND[3 * LANES + lane] | TRICK_CARDS[lane];
  let seat = m[TO_MOVE];
  let trick = m[TRICK];
  let led = m[LED];
  let best = m[BEST];
  let bestSeat = m[BEST_SEAT];
  let worth = m[TRICK_WORTH];
  const decision = m[DECISION];
  let moves = 0;
  let first = after;
  if (decision === Decision.Claim) moves++;
  else if (decision === Decision.None) trick = TRICKS;
  const hand = HAND;
  const points = POINTS;
  const strength = STRENGTH;
  // The sides as bit masks by seat: a seat's flags without array reads in the loop.
  let sides = 0;
  let maxima = 0;
  for (let s = 0; s < SEATS; s++) {
    sides |= inSide[s] << s;
    maxima |= maximizer[s] << s;
  }
  while (trick < TRICKS) {
    const h = seat * LANES;
    let card = first;
    if (card >= 0) {
      // The solver's move: see `after`.
    } else if (trick === TRICKS - 1) {
      // The last trick: one card a hand, nothing to choose.
      let lane = 0;
      while (hand[h + lane] === 0) lane++;
      card = (lane << 5) | (31 - Math.clz32(hand[h + lane]));
    } else {
      // `legal`, as lanes allowed: V-4's first lead a trump if any; V-5 follow suit or trump (to trumps a trump).
      let lanes = 15;
      if (pos === 0) {
        if (trick === 0 && hand[h] !== 0) lanes = 1;
      } else {
        const suit = hand[h + led];
        if (suit !== 0) {
          // One card of the suit led and no trump besides: the only legal card.
          if ((suit & (suit - 1)) === 0 && (led === TRUMP_LANE || hand[h] === 0))
            card = (led << 5) | (31 - Math.clz32(suit));
          lanes = (1 << led) | 1;
        }
      }
      const hoff = seat * 128;
      const max = (maxima >>> seat) & 1;
      // `playoutMove`'s scores: a trick going this seat's way, whether winning is good for it.
      const goodNow = pos > 0 && best >= 0 && ((sides >>> bestSeat) & 1) === max;
      const selfGood = ((sides >>> seat) & 1) === max;
      let top = LOWEST;
      for (let rest = card < 0 ? lanes : 0; rest !== 0; rest &= rest - 1) {
        const lane = 31 - Math.clz32(rest & -rest);
        const mine = hand[h + lane];
        if (mine === 0) continue;
        const live = LIVE[lane];
        const base = lane << 5;
        let prev = -1;
        let prevPts = -1;
        for (let cards = mine; cards !== 0; cards &= cards - 1) {
          const bit = 31 - Math.clz32(cards & -cards);
          const code = base | bit;
          const pts = points[code];
          // Interchangeable with the legal card below it (nothing live between, the same points): `searchMoves` keeps the lower.
          const same = pts === prevPts && (live & ((1 << bit) - (2 << prev))) === 0;
          prev = bit;
          prevPts = pts;
          if (same) continue;
          let score: number;
          if (pos === 0) score = Math.min(history[hoff + code], LEAD_HISTORY_CAP) * 64 + bit;
          else {
            const heads = strength[(led << 7) | code] > best;
            if (goodNow) score = heads ? 1000 + pts : 4000 + pts * 8;
            else if (heads) score = selfGood ? 4000 + pts * 4 - bit : 1000 - pts;
            else score = selfGood ? 2000 - pts * 8 : 3000 + pts * 8;
            score = score * 1024 + Math.min(1023, history[hoff + code]);
          }
          if (score > top) {
            top = score;
            card = code;
          }
        }
      }
    }
    const lane = card >>> 5;
    const bit = 1 << (card & 31);
    hand[h + lane] ^= bit;
    TRICK_CARDS[lane] |= bit;
    moves++;
    if (pos === 0) {
      // V-4: a first lead without a trump goes face down, counts as a trump lead and cannot win.
      const facedown = trick === 0 && lane !== TRUMP_LANE;
      led = facedown ? TRUMP_LANE : lane;
      best = facedown ? -1 : strength[(led << 7) | card];
      bestSeat = seat;
      worth = points[card];
    } else {
      worth += points[card];
      const bid = strength[(led << 7) | card];
      if (bid > best) {
        best = bid;
        bestSeat = seat;
      }
    }
    if (++pos < SEATS) {
      seat = (seat + 1) & 3;
      continue;
    }
    // The trick to its winner; a team that has reached its target before the last trick is asked to claim (NO).
    const team = bestSeat & 1;
    TAKEN_BY[bestSeat] += worth;
    if (trick + 1 < TRICKS && TAKEN_BY[team] + TAKEN_BY[team + 2] >= (team === 0 ? target0 : target1)) moves++;
    trick++;
    pos = 0;
    seat = bestSeat;
    for (let l = 0; l < LANES; l++) {
      LIVE[l] ^= TRICK_CARDS[l];
      TRICK_CARDS[l] = 0;
    }
    if (first >= 0) {
      // The trick boundary after `after`: its claim answer is the solver's node, and its bounds may decide.
      first = -1;
      out[2] = moves - 1;
      moves = 0;
      let base = 0;
      let taken = 0;
      for (let s = 0; s < SEATS; s++) {
        taken += TAKEN_BY[s];
        if (inSide[s] === 1) base += TAKEN_BY[s];
      }
      const top = base + PACK_POINTS - taken;
      if (trick === TRICKS || top <= alpha || base >= beta) {
        out[0] = trick === TRICKS ? base : top <= alpha ? top : base;
        out[1] = 0;
        return;
      }
    }
  }
  let sum = 0;
  for (let s = 0; s < SEATS; s++) if (inSide[s] === 1) sum += TAKEN_BY[s];
  out[0] = sum;
  out[1] = moves;
}
