/**
 * Hindersche's `Game.dealAims` and `Game.outlook` (game.ts): what search bots need to
 * value card play by the deal's slate result (H-4, H-6, H-8) instead of by card points
 * alone. Both go through the slate rules of score.ts, as the deal's `returns` does, so
 * the outlook is `returns` itself evaluated on a modelled end of the deal.
 *
 * Aims. Every seat of the deal marches with 100 points; in phase 2 (and in a playoff
 * of phase 2) also with all 9 tricks, given here as every point still to take while
 * no other seat has kept a trick (necessary for all the tricks, not sufficient: a
 * trick worth nothing may still go elsewhere; it matters only with fewer than 100
 * points in play, i.e. with two or three players).
 *
 * Outlook. With a marcher, the deal is scored as his march (he takes what is left;
 * with fewer than 100 he is given all the tricks). Without one, `seat` ends with
 * `own` and each other player with what he has kept plus an even share of the rest,
 * spread by fixed zero-sum offsets (seven splits for three others, three for two) of
 * 40% of that share: who ends with the most points is uncertain until the rest is
 * played, and the spread turns the slate's steps (most points: a mark) into a smooth
 * slope. No other player reaches 100 in these splits. The value is the `returns`
 * formula (state.ts) averaged over the splits.
 */
import type { DealAims } from '../game.js';
import { MARCH_POINTS, Settlement, TRICKS, settle } from './score.js';
import { PACK_POINTS, POINT_WEIGHT, SEATS, type HinderscheState } from './state.js';

/** Zero-sum offsets for the other players' shares, by their number (rows of `k` entries). */
const SPLITS: readonly (readonly number[])[] = [
  [],
  [0],
  [0, 0, 1, -1, -1, 1],
  [0, 0, 0, 1, 0, -1, 1, -1, 0, 0, 1, -1, 0, -1, 1, -1, 1, 0, -1, 0, 1],
];
/** The spread of a share, as a fraction of it. */
const SPREAD = 0.4;

const points = new Int32Array(SEATS);
const tricks = new Int32Array(SEATS);
const settlement = new Settlement();

export function dealAims(s: HinderscheState, out: DealAims): void {
  const inPlay = s.inPlay();
  for (let q = 0; q < SEATS; q++) {
    if (((s.mask >>> q) & 1) === 0) {
      out.target[q] = Infinity;
      continue;
    }
    let t = MARCH_POINTS;
    if (s.phase === 2) {
      let othersKept = 0;
      for (let o = 0; o < SEATS; o++) if (o !== q) othersKept += s.tricksKept[o];
      if (othersKept === 0) t = Math.min(t, s.seatPoints[q] + inPlay);
    }
    out.target[q] = t;
  }
}

export function outlook(s: HinderscheState, seat: number, own: number, marcher: number): number {
  const mask = s.mask;
  let kept = 0;
  for (let q = 0; q < SEATS; q++) {
    points[q] = s.seatPoints[q];
    tricks[q] = 1;
    kept += points[q];
  }
  const total = kept + s.inPlay();
  if (marcher >= 0) {
    points[marcher] += total - kept;
    if (points[marcher] < MARCH_POINTS) {
      if (s.phase === 2) {
        for (let q = 0; q < SEATS; q++) tricks[q] = 0;
        tricks[marcher] = TRICKS;
      } else points[marcher] = MARCH_POINTS;
    }
    return value(s, seat);
  }
  const mine = Math.max(points[seat], Math.round(own));
  let othersKept = 0;
  let k = 0;
  for (let q = 0; q < SEATS; q++) {
    if (q === seat || ((mask >>> q) & 1) === 0) continue;
    othersKept += points[q];
    k++;
  }
  if (k === 0) return 0;
  points[seat] = mine;
  const share = Math.max(0, total - mine - othersKept) / k;
  const rows = SPLITS[k];
  const nRows = rows.length / k;
  let sum = 0;
  for (let r = 0; r < nRows; r++) {
    let j = 0;
    for (let q = 0; q < SEATS; q++) {
      if (q === seat || ((mask >>> q) & 1) === 0) continue;
      const p = s.seatPoints[q] + share * (1 + SPREAD * rows[r * k + j++]);
      points[q] = Math.min(MARCH_POINTS - 1, Math.max(s.seatPoints[q], Math.round(p)));
    }
    sum += value(s, seat);
  }
  return sum / nRows;
}

/** `returns()[seat]` (state.ts) for the deal ended with `points` and `tricks`. */
function value(s: HinderscheState, seat: number): number {
  settle(s, points, tricks, settlement);
  let marks = 0;
  let total = 0;
  for (let q = 0; q < SEATS; q++) {
    if (((s.mask >>> q) & 1) === 0) continue;
    marks += settlement.expected(q);
    total += points[q];
  }
  const n = s.players;
  const e = settlement.expected(seat);
  const p = points[seat];
  return (marks - e) / (n - 1) - e + (POINT_WEIGHT * ((total - p) / (n - 1) - p)) / PACK_POINTS;
}
