/**
 * A deliberately naive Hindersche, written from RULES.md (C-1 to C-5, H-1 to H-9) and
 * nothing else: cards are RECORD.md names ('10H', 'JD'), hands are arrays, every
 * question is answered by scanning or sorting lists. It shares no code with
 * the engine (this folder; the card rules, H-1, come from Viersche's reference.ts, itself
 * independent of the engines), so the perft, lock-step and rubber tests compare two
 * independent readings of the rules.
 *
 * Two parts: `NaiveDeal` (one deal's play, schleipfen included) and `NaiveRubber`
 * (the slate, playoffs, drop-outs, dealers, frame and settlement), driven by deal
 * results (points and tricks kept per seat).
 */
import { SUITS } from '../../core/french.js';
import type { HinderscheState } from './state.js';
import { dealtNames, type ContractCase, type NaiveGame, type NaiveTwin } from '../reference.js';
import { effectiveSuit, naiveIsTrump, naivePoints, naiveTrickWinner } from '../viersche/reference.js';

const YES_MOVE = 'yes';
const NO_MOVE = 'no';

export interface NaiveDealTrick {
  leader: number;
  cards: string[];
  winner: number;
  taker: number;
  points: number;
  offeredBy: number;
  objectedBy: number;
}

/** One deal: `players` in playing order from forehand; other seats take no part. */
export class NaiveDeal {
  hands: string[][];
  current: string[] = [];
  leader: number;
  tricks: NaiveDealTrick[] = [];
  points = [0, 0, 0, 0];
  kept = [0, 0, 0, 0];
  phase: 'card' | 'offer' | 'object' | 'over' = 'card';
  toMove: number;
  /** H-2 bookkeeping while a trick's taker is decided. */
  private pending: NaiveDealTrick | null = null;
  private asked: number[] = [];

  constructor(
    readonly players: readonly number[],
    readonly trump: string,
    hands: readonly (readonly string[])[],
    readonly schleipfen: boolean,
  ) {
    this.hands = hands.map((h) => [...h]);
    this.leader = players[0]; // C-5: forehand leads
    this.toMove = this.leader;
  }

  clone(): NaiveDeal {
    const c = new NaiveDeal(this.players, this.trump, this.hands, this.schleipfen);
    c.current = [...this.current];
    c.leader = this.leader;
    c.tricks = this.tricks.map((t) => ({ ...t, cards: [...t.cards] }));
    c.points = [...this.points];
    c.kept = [...this.kept];
    c.phase = this.phase;
    c.toMove = this.toMove;
    c.pending = this.pending ? { ...this.pending, cards: [...this.pending.cards] } : null;
    c.asked = [...this.asked];
    return c;
  }

  /** The player after `seat` in playing order. */
  next(seat: number): number {
    const i = this.players.indexOf(seat);
    return this.players[(i + 1) % this.players.length];
  }

  legalMoves(): string[] {
    if (this.phase === 'over') return [];
    if (this.phase !== 'card') return [YES_MOVE, NO_MOVE];
    const hand = this.hands[this.toMove];
    if (this.current.length === 0) return [...hand]; // H-1: any lead
    const led = effectiveSuit(this.trump, this.current[0]);
    const trumps = hand.filter((c) => naiveIsTrump(this.trump, c));
    if (led === 'T') return trumps.length > 0 ? trumps : [...hand]; // V-5: trumps led
    const suit = hand.filter((c) => effectiveSuit(this.trump, c) === led);
    return suit.length > 0 ? [...suit, ...trumps] : [...hand]; // V-5: follow or trump; void: anything
  }

  play(move: string): void {
    if (!this.legalMoves().includes(move)) throw new Error(`naive: illegal move ${move} for ${this.toMove}`);
    const t = this.pending;
    if (this.phase === 'offer' && t) {
      // H-2: the others, in playing order from the winner, may offer to take the trick.
      if (move === YES_MOVE) {
        t.offeredBy = this.toMove;
        this.phase = 'object';
        this.asked = [];
        this.toMove = this.next(this.toMove);
      } else {
        const n = this.next(this.toMove);
        if (n === t.winner) this.settle(t.winner);
        else this.toMove = n;
      }
      return;
    }
    if (this.phase === 'object' && t) {
      // H-2: anyone else (the winner included) may object; an objection gives it to the winner.
      if (move === YES_MOVE) {
        t.objectedBy = this.toMove;
        this.settle(t.winner);
      } else {
        const n = this.next(this.toMove);
        if (n === t.offeredBy) this.settle(t.offeredBy);
        else this.toMove = n;
      }
      return;
    }
    const seat = this.toMove;
    this.hands[seat] = this.hands[seat].filter((c) => c !== move);
    if (this.current.length === 0) this.leader = seat;
    this.current.push(move);
    if (this.current.length < this.players.length) {
      this.toMove = this.next(seat);
      return;
    }
    const led = effectiveSuit(this.trump, this.current[0]);
    const order = this.players.indexOf(this.leader);
    const w = this.players[(order + naiveTrickWinner(this.trump, this.current, led, -1)) % this.players.length];
    const points = this.current.reduce((p, c) => p + naivePoints(this.trump, c), 0);
    const trick: NaiveDealTrick = {
      leader: this.leader,
      cards: this.current,
      winner: w,
      taker: w,
      points,
      offeredBy: -1,
      objectedBy: -1,
    };
    this.current = [];
    if (this.schleipfen) {
      this.pending = trick;
      this.phase = 'offer';
      this.toMove = this.next(w);
    } else {
      this.pending = trick;
      this.settle(w);
    }
  }

  private settle(taker: number): void {
    const t = this.pending;
    if (!t) throw new Error('naive: no trick to settle');
    t.taker = taker;
    this.tricks.push(t);
    this.pending = null;
    this.points[taker] += t.points;
    this.kept[taker]++;
    this.leader = taker;
    this.toMove = taker;
    this.phase = this.tricks.length === 9 ? 'over' : 'card';
  }
}

/** The contract suite's view of the reference (../reference.ts): one deal of the players in playing order. */
const hinderscheTwin: NaiveTwin = (state) => {
  const s = state as HinderscheState;
  const players = Array.from(s.order.subarray(0, s.players));
  return adaptDeal(new NaiveDeal(players, SUITS[s.trump], dealtNames(s), s.schleipfen));
};

function adaptDeal(g: NaiveDeal): NaiveGame {
  return { moves: () => g.legalMoves(), play: (m) => g.play(m), clone: () => adaptDeal(g.clone()) };
}

/** Number of move sequences of exactly `depth` moves. */
export function naivePerft(g: NaiveDeal, depth: number): number {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of g.legalMoves()) {
    const c = g.clone();
    c.play(m);
    n += naivePerft(c, depth - 1);
  }
  return n;
}

// ---- the slate -------------------------------------------------------------

type NaiveWhy = 'most' | 'fewest' | 'march' | 'march-opponent' | 'excess' | 'playoff' | 'all-35';
export interface NaiveTie {
  for: 'most' | 'fewest';
  tied: number[];
  places: number;
}
interface NaiveOutcome {
  /** Settled changes: seat -> [n, why]. */
  changes: Map<number, [number, NaiveWhy]>;
  ties: NaiveTie[];
  marcher: number;
}

/**
 * Places for the best `places` of `seats` by `points` (fewest first for 'fewest',
 * most first for 'most'): the seats surely inside, and the tie across the last place.
 */
function rank(
  seats: number[],
  points: readonly number[],
  dir: 'most' | 'fewest',
  places: number,
): { inside: number[]; tie: NaiveTie | null } {
  if (places <= 0 || seats.length === 0) return { inside: [], tie: null };
  const sorted = [...seats].sort((a, b) => (dir === 'fewest' ? points[a] - points[b] : points[b] - points[a]));
  const cut = points[sorted[Math.min(places, sorted.length) - 1]];
  const better = (p: number) => (dir === 'fewest' ? p < cut : p > cut);
  const inside = sorted.filter((s) => better(points[s]));
  const atCut = sorted.filter((s) => points[s] === cut);
  const left = Math.min(places, sorted.length) - inside.length;
  if (atCut.length === left) return { inside: [...inside, ...atCut], tie: null };
  return { inside, tie: { for: dir, tied: atCut.sort((a, b) => a - b), places: left } };
}

interface NaiveDealFacts {
  phase: 1 | 2;
  playoff: NaiveTie | null;
  /** The seats that played. */
  players: number[];
  slate: readonly number[];
  points: readonly number[];
  kept: readonly number[];
}

/** H-4, H-6, H-8: the outcome of one deal, straight from the text. */
function naiveOutcome(f: NaiveDealFacts): NaiveOutcome {
  const changes = new Map<number, [number, NaiveWhy]>();
  const ties: NaiveTie[] = [];
  const isMarch = (s: number) => f.points[s] >= 100 || (f.phase === 2 && f.kept[s] === 9);
  const marcher = f.players.find(isMarch) ?? -1;
  const others = f.players.filter((s) => s !== marcher);
  const apply = (r: { inside: number[]; tie: NaiveTie | null }, n: number, why: NaiveWhy) => {
    for (const s of r.inside) changes.set(s, [n, why]);
    if (r.tie) ties.push(r.tie);
  };

  if (f.playoff) {
    if (f.playoff.for === 'most') {
      apply(rank(others, f.points, 'most', f.playoff.places), 1, 'playoff');
    } else {
      let places = f.playoff.places;
      if (marcher >= 0) {
        changes.set(marcher, [-1, 'playoff']);
        places--;
      }
      apply(rank(others, f.points, 'fewest', places), -1, 'playoff');
    }
    return { changes, ties, marcher };
  }

  const P = f.players.length;
  const M = f.slate.reduce((a, b) => a + b, 0);
  if (f.phase === 1) {
    if (marcher >= 0) for (const s of others) changes.set(s, [1, 'march-opponent']);
    else if (P === 4 && f.players.every((s) => f.points[s] === 35))
      for (const s of f.players) changes.set(s, [1, 'all-35']);
    else apply(rank(f.players, f.points, 'most', 1), 1, 'most');
    return { changes, ties, marcher };
  }
  const allEqual = f.players.every((s) => f.points[s] === f.points[f.players[0]]);
  if (marcher < 0 && allEqual) return { changes, ties, marcher };
  const eraseAll2 = () => changes.set(marcher, [-Math.min(2, f.slate[marcher]), 'march']);
  if (P === 2) {
    if (marcher >= 0) eraseAll2();
    else apply(rank(f.players, f.points, 'fewest', 1), -1, 'fewest');
  } else if (M > 4) {
    if (marcher >= 0) changes.set(marcher, [M - 4 >= 2 && f.slate[marcher] >= 2 ? -2 : -1, 'march']);
    else apply(rank(f.players, f.points, 'fewest', Math.min(M - 4, P - 1)), -1, 'excess');
  } else if (M === 4) {
    if (marcher >= 0) {
      eraseAll2();
      for (const s of others) changes.set(s, [1, 'march-opponent']);
    } else {
      apply(rank(f.players, f.points, 'fewest', 1), -1, 'fewest');
      apply(rank(f.players, f.points, 'most', 1), 1, 'most');
    }
  } else if (marcher >= 0) {
    eraseAll2();
  } else {
    apply(rank(f.players, f.points, 'most', 1), 1, 'most');
  }
  return { changes, ties, marcher };
}

export interface NaiveScore {
  game: number;
  phase: 1 | 2;
  slate: number[];
  in: number[];
  frame: number[];
}

export interface NaiveNext {
  dealer: number;
  /** In playing order, forehand first. */
  players: number[];
  playoff: NaiveTie | null;
}

/** The rubber, as a plain model: what the next deal is, and what a deal's result does. */
export class NaiveRubber {
  score: NaiveScore = { game: 0, phase: 1, slate: [0, 0, 0, 0], in: [0, 1, 2, 3], frame: [0, 0, 0, 0] };
  open: NaiveTie[] = [];
  lastDealer: number;
  over = false;

  constructor(
    firstDealer: number,
    readonly games: number,
    readonly tariff: number,
  ) {
    this.lastDealer = (firstDealer + 3) % 4;
  }

  /** H-7, H-8: who deals the next deal and who plays it. */
  next(): NaiveNext {
    const due = (this.lastDealer + 1) % 4;
    const fromDue = [0, 1, 2, 3].map((k) => (due + k) % 4);
    const playoff = this.open[0] ?? null;
    const pool = playoff ? playoff.tied : this.score.in;
    const dealer = fromDue.find((s) => pool.includes(s));
    if (dealer === undefined) throw new Error('naive: nobody to deal');
    const players = [1, 2, 3, 4].map((k) => (dealer + k) % 4).filter((s) => pool.includes(s));
    return { dealer, players, playoff };
  }

  /** Apply a finished deal; returns RECORD.md's events and the ties it leaves. */
  finish(
    d: NaiveNext,
    points: readonly number[],
    kept: readonly number[],
  ): { events: unknown[]; ties: NaiveTie[]; marcher: number } {
    const sc = this.score;
    const out = naiveOutcome({
      phase: sc.phase,
      playoff: d.playoff,
      players: d.players,
      slate: sc.slate,
      points,
      kept,
    });
    const events: unknown[] = [];
    if (d.playoff) this.open.shift();
    else this.lastDealer = d.dealer;
    for (const sign of [-1, 1]) {
      for (const s of d.players) {
        const c = out.changes.get(s);
        if (!c || Math.sign(c[0]) !== sign) continue;
        sc.slate[s] += c[0];
        events.push({ type: 'mark', seat: s, n: c[0], why: c[1] });
      }
    }
    this.open = [...out.ties, ...this.open];
    const endGame = (loser: number, marks: number) => {
      sc.frame[loser] += marks;
      events.push({ type: 'game', loser, frame: marks });
      sc.game++;
      sc.phase = 1;
      sc.slate = [0, 0, 0, 0];
      sc.in = [0, 1, 2, 3];
      this.open = [];
      if (sc.game === this.games) {
        const total = sc.frame.reduce((a, b) => a + b, 0);
        events.push({ type: 'rubber', balance: sc.frame.map((f) => this.tariff * (total - f) - this.tariff * 3 * f) });
        this.over = true;
      }
    };
    if (sc.phase === 2) {
      for (const s of d.players) {
        if (sc.slate[s] === 0 && sc.in.includes(s)) {
          sc.in = sc.in.filter((x) => x !== s);
          events.push({ type: 'out', seat: s });
        }
      }
      if (sc.in.length === 1) endGame(sc.in[0], 1);
    } else if (this.open.length === 0 && sc.slate.reduce((a, b) => a + b, 0) >= 4) {
      const marked = [0, 1, 2, 3].filter((s) => sc.slate[s] > 0);
      if (marked.length === 1)
        endGame(marked[0], 2); // H-5
      else {
        sc.phase = 2;
        for (const s of [1, 2, 3, 4].map((k) => (this.lastDealer + k) % 4)) {
          if (sc.slate[s] === 0) events.push({ type: 'out', seat: s });
        }
        sc.in = marked;
      }
    }
    return { events, ties: out.ties, marcher: out.marcher };
  }

  snapshot(): NaiveScore {
    const s = this.score;
    return { game: s.game, phase: s.phase, slate: [...s.slate], in: [...s.in], frame: [...s.frame] };
  }
}

/** What the contract suite plays: the tables, and the reference in lock-step with the engine. */
export const contract: ContractCase = {
  tables: [
    [4, {}],
    [4, { schleipfen: true }],
  ],
  naive: hinderscheTwin,
};
