/**
 * The slate rules of one Hindersche deal (RULES.md H-4, H-6, H-8): who receives or
 * erases marks, and which ties are left for a playoff. A pure function of the deal's
 * public context and its card points and tricks kept, shared by the match (which
 * applies it) and by the deal state's `returns` (which values it for search), so
 * search and scoring can never disagree. Allocation-free: the caller owns the
 * `Settlement`.
 *
 * Ties. A tie is `{for, tied, places}`: among the seats of `tied`, the `places` seats
 * with the most ('most') or fewest ('fewest') points receive the tie's outcome (+1
 * mark for 'most', -1 for 'fewest'). Seats clearly inside a decided place are settled
 * at once; only the seats tied across the last place play off, for the places that
 * remain (H-6).
 */

/** Why a mark moved: RECORD.md's `why` values, by code. */
const Why = {
  None: 0,
  Most: 1,
  Fewest: 2,
  March: 3,
  MarchOpponent: 4,
  Excess: 5,
  Playoff: 6,
  All35: 7,
} as const;
export const WHY_NAMES = ['', 'most', 'fewest', 'march', 'march-opponent', 'excess', 'playoff', 'all-35'] as const;

/** What a tie is for. */
export const TieFor = { None: 0, Most: 1, Fewest: 2 } as const;

export const Kind = { Normal: 0, Playoff: 1 } as const;

/** Points that make a march in either phase (H-4, H-6). */
export const MARCH_POINTS = 100;
/** Marks at which phase 1 ends and around which phase 2 turns (H-4, H-6). */
export const SLATE_TARGET = 4;
export const TRICKS = 9;

/** The public facts of a deal that its scoring depends on. The deal state is one. */
export interface SlateContext {
  /** 1: Vier-Strich, 2: Butzen. */
  readonly phase: number;
  /** Kind.Normal or Kind.Playoff. */
  readonly kind: number;
  /** The seats taking part, as a bit mask. */
  readonly mask: number;
  /** Marks on the slate by seat before the deal. */
  readonly slate: ArrayLike<number>;
  /** For a playoff: what it decides and for how many places. */
  readonly playoffFor: number;
  readonly playoffPlaces: number;
}

/** The result of `settle`: settled mark changes, the marcher, and the ties left open. */
export class Settlement {
  /** Marks added (+) or erased (-) by seat, settled by this deal. */
  readonly delta = new Int8Array(4);
  /** Why each seat's marks moved (Why code; None when delta is 0). */
  readonly why = new Int8Array(4);
  /** The seat that made a march (as the deal's phase defines it), or -1. */
  marcher = -1;
  /** Ties left for playoffs, in the order they are to be played. */
  ties = 0;
  readonly tieFor = new Int8Array(2);
  readonly tieMask = new Int8Array(2);
  readonly tiePlaces = new Int8Array(2);

  clear(): void {
    for (let s = 0; s < 4; s++) this.delta[s] = this.why[s] = 0;
    this.marcher = -1;
    this.ties = 0;
  }

  /**
   * Expected mark change of `seat`: the settled change plus, for each open tie it is
   * part of, its share of the places (a playoff among k players for r places is taken
   * as a fair lottery: r / k).
   */
  expected(seat: number): number {
    let e = this.delta[seat];
    for (let t = 0; t < this.ties; t++) {
      const m = this.tieMask[t];
      if (((m >>> seat) & 1) === 0) continue;
      const share = this.tiePlaces[t] / popcount4(m);
      e += this.tieFor[t] === TieFor.Most ? share : -share;
    }
    return e;
  }
}

function popcount4(m: number): number {
  return (m & 1) + ((m >>> 1) & 1) + ((m >>> 2) & 1) + ((m >>> 3) & 1);
}

const sortBuf = new Int32Array(4);

/**
 * Give `places` seats of `mask` the outcome `d` (marks) with reason `why`: those with
 * the most points (`fewest` false) or the fewest. Seats tied across the last place
 * become a tie for the places that remain.
 */
function pick(
  mask: number,
  points: ArrayLike<number>,
  fewest: boolean,
  places: number,
  d: number,
  why: number,
  out: Settlement,
): void {
  if (places <= 0 || mask === 0) return;
  if (places === 1) {
    pickOne(mask, points, fewest, d, why, out);
    return;
  }
  // Sort keys (smaller = comes first) by insertion: at most four.
  let n = 0;
  for (let s = 0; s < 4; s++) {
    if (((mask >>> s) & 1) === 0) continue;
    const key = fewest ? points[s] : -points[s];
    let i = n++;
    while (i > 0 && sortBuf[i - 1] > key) {
      sortBuf[i] = sortBuf[i - 1];
      i--;
    }
    sortBuf[i] = key;
  }
  if (places >= n) places = n;
  const v = sortBuf[places - 1];
  let below = 0;
  let tied = 0;
  let t = 0;
  for (let s = 0; s < 4; s++) {
    if (((mask >>> s) & 1) === 0) continue;
    const key = fewest ? points[s] : -points[s];
    if (key < v) {
      out.delta[s] += d;
      out.why[s] = why;
      below++;
    } else if (key === v) {
      tied |= 1 << s;
      t++;
    }
  }
  const remaining = places - below;
  if (t === remaining) {
    for (let s = 0; s < 4; s++) {
      if (((tied >>> s) & 1) === 0) continue;
      out.delta[s] += d;
      out.why[s] = why;
    }
  } else {
    const k = out.ties++;
    out.tieFor[k] = fewest ? TieFor.Fewest : TieFor.Most;
    out.tieMask[k] = tied;
    out.tiePlaces[k] = remaining;
  }
}

/** `pick` for one place (every deal but a few of phase 2): the seats with the best key, no sort. */
function pickOne(
  mask: number,
  points: ArrayLike<number>,
  fewest: boolean,
  d: number,
  why: number,
  out: Settlement,
): void {
  let v = 0;
  let tied = 0;
  let t = 0;
  for (let s = 0; s < 4; s++) {
    if (((mask >>> s) & 1) === 0) continue;
    const key = fewest ? points[s] : -points[s];
    if (t === 0 || key < v) {
      v = key;
      tied = 1 << s;
      t = 1;
    } else if (key === v) {
      tied |= 1 << s;
      t++;
    }
  }
  if (t === 1) {
    const s = 31 - Math.clz32(tied);
    out.delta[s] += d;
    out.why[s] = why;
  } else {
    const k = out.ties++;
    out.tieFor[k] = fewest ? TieFor.Fewest : TieFor.Most;
    out.tieMask[k] = tied;
    out.tiePlaces[k] = 1;
  }
}

function erase(out: Settlement, seat: number, n: number, why: number): void {
  out.delta[seat] -= n;
  out.why[seat] = why;
}

function addToOthers(out: Settlement, mask: number, except: number, why: number): void {
  for (let s = 0; s < 4; s++) {
    if (s === except || ((mask >>> s) & 1) === 0) continue;
    out.delta[s] += 1;
    out.why[s] = why;
  }
}

/**
 * Score a finished deal. `points[seat]` are the card points kept, `tricks[seat]` the
 * tricks kept (after any schleipfe); seats outside `ctx.mask` are ignored.
 */
export function settle(ctx: SlateContext, points: ArrayLike<number>, tricks: ArrayLike<number>, out: Settlement): void {
  out.clear();
  const mask = ctx.mask;
  const slate = ctx.slate;
  let P = 0;
  let M = 0;
  let allEqual = true;
  let first = -1;
  for (let s = 0; s < 4; s++) {
    M += slate[s];
    if (((mask >>> s) & 1) === 0) continue;
    P++;
    if (first < 0) first = points[s];
    else if (points[s] !== first) allEqual = false;
    // H-4: 100 points; H-6 (and a playoff in phase 2, H-8): 100 points or all 9 tricks.
    if (points[s] >= MARCH_POINTS || (ctx.phase === 2 && tricks[s] === TRICKS)) out.marcher = s;
  }
  const m = out.marcher;

  if (ctx.kind === Kind.Playoff) {
    // H-8: a march wins the playoff; then the most points among the others loses, or
    // the fewest among the others win the places the marcher leaves.
    const others = m >= 0 ? mask & ~(1 << m) : mask;
    if (ctx.playoffFor === TieFor.Most) {
      pick(others, points, false, ctx.playoffPlaces, +1, Why.Playoff, out);
    } else {
      let places = ctx.playoffPlaces;
      if (m >= 0) {
        erase(out, m, 1, Why.Playoff);
        places--;
      }
      pick(others, points, true, places, -1, Why.Playoff, out);
    }
    return;
  }

  if (ctx.phase === 1) {
    // H-4.
    if (m >= 0) addToOthers(out, mask, m, Why.MarchOpponent);
    else if (P === 4 && allEqual && first === 35) addToOthers(out, mask, -1, Why.All35);
    else pick(mask, points, false, 1, +1, Why.Most, out);
    return;
  }

  // H-6, phase 2.
  if (m < 0 && allEqual) return;
  if (P >= 3) {
    if (M > SLATE_TARGET) {
      if (m >= 0) erase(out, m, M - SLATE_TARGET >= 2 && slate[m] >= 2 ? 2 : 1, Why.March);
      else pick(mask, points, true, Math.min(M - SLATE_TARGET, P - 1), -1, Why.Excess, out);
    } else if (M === SLATE_TARGET) {
      if (m >= 0) {
        erase(out, m, Math.min(2, slate[m]), Why.March);
        addToOthers(out, mask, m, Why.MarchOpponent);
      } else {
        // Decision: the erasing tie is listed (and played) before the adding tie, in
        // the order H-6 names them.
        pick(mask, points, true, 1, -1, Why.Fewest, out);
        pick(mask, points, false, 1, +1, Why.Most, out);
      }
    } else {
      // Decision (RULES.md H-6, from the older text): never reached by the rules above.
      if (m >= 0) erase(out, m, Math.min(2, slate[m]), Why.March);
      else pick(mask, points, false, 1, +1, Why.Most, out);
    }
  } else if (P === 2) {
    if (m >= 0) erase(out, m, Math.min(2, slate[m]), Why.March);
    else pick(mask, points, true, 1, -1, Why.Fewest, out);
  }
}
