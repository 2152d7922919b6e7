/**
 * A naive Vier-Anderle reference, written straight from RULES.md ..A-7 on card
 * names, sharing no code with the engine: legal cards, trick winners, the money of a
 * hand, and a perft over declarations and cards. Slow and obvious on purpose.
 */
import type { AnderleState } from './state.js';
import { dealtNames, type ContractCase, type NaiveGame, type NaiveTwin } from '../reference.js';

const BLACK = ['7', '8', '9', '10', 'J', 'C', 'Q', 'K'];
const RED = ['4', '3', '2', '1', 'J', 'C', 'Q', 'K'];

interface Card {
  tarock: boolean;
  /** 'T' for tarocks, else the suit letter. */
  key: string;
  rank: number;
}

function card(name: string): Card {
  if (/^T\d+$/.test(name)) return { tarock: true, key: 'T', rank: Number(name.slice(1)) };
  const suit = name.slice(-1);
  const ranks = suit === 'C' || suit === 'S' ? BLACK : RED;
  const rank = ranks.indexOf(name.slice(0, -1));
  if (rank < 0 || !'CSHD'.includes(suit)) throw new Error(`no card ${name}`);
  return { tarock: false, key: suit, rank };
}

/** Whether `a` beats `b` in a trick whose led key (T or a suit) is `led`. */
function beats(a: string, b: string, led: string): boolean {
  const x = card(a);
  const y = card(b);
  if (x.tarock) return !y.tarock || x.rank > y.rank;
  if (x.key !== led) return false;
  if (y.tarock) return false;
  return y.key !== led || x.rank > y.rank;
}

/** the legal cards of `hand` on the cards `trick` (in playing order). */
export function naiveLegal(hand: readonly string[], trick: readonly string[]): string[] {
  if (trick.length === 0) return [...hand];
  const led = card(trick[0]).key;
  let allowed = hand.filter((c) => card(c).key === led);
  if (allowed.length === 0) allowed = hand.filter((c) => card(c).tarock);
  if (allowed.length === 0) allowed = [...hand];
  const heads = allowed.filter((c) => trick.every((t) => beats(c, t, led)));
  return heads.length > 0 ? heads : allowed;
}

/** Index in `trick` of the winning card. */
export function naiveWinner(trick: readonly string[]): number {
  const led = card(trick[0]).key;
  for (let i = 0; i < trick.length; i++) if (trick.every((t, j) => j === i || beats(trick[i], t, led))) return i;
  throw new Error('no winner');
}

/**
 * A-5..A-7: each seat's money change for a hand with `potBefore` before the dealer's 4,
 * `inSeats` those in, `tricks[s]` tricks taken (ignored for a void or sole hand).
 */
export function naiveMoney(
  seats: number,
  dealer: number,
  potBefore: number,
  inSeats: readonly number[],
  tricks: readonly number[],
): number[] {
  const out = new Array<number>(seats).fill(0);
  const pot = potBefore + 4;
  out[dealer] -= 4;
  if (inSeats.length === 1) {
    out[inSeats[0]] += pot;
    return out;
  }
  for (const s of inSeats) {
    if (tricks[s] === 0) out[s] -= pot;
    else if (potBefore > 0) out[s] += (tricks[s] * pot) / 4;
  }
  return out;
}

export interface NaivePos {
  seats: number;
  dealer: number;
  potBefore: number;
  hands: string[][];
}

/**
 * Leaf counts by depth: `counts[d]` is the number of move sequences of length d (a
 * declaration or a card each) from the start, sequences that end earlier not counted
 * at deeper levels.
 */
export function naivePerft(pos: NaivePos, depth: number): number[] {
  const counts = new Array<number>(depth + 1).fill(0);
  const n = pos.seats;
  const hands = pos.hands.map((h) => [...h]);
  const order = Array.from({ length: n }, (_, i) => (pos.dealer + 1 + i) % n);
  const declare = (i: number, ins: number[], d: number): void => {
    if (d > depth) return;
    counts[d]++;
    if (i === n) {
      if (ins.length >= 2) play(ins, ins[0], [], 0, d);
      return;
    }
    declare(i + 1, [...ins, order[i]], d + 1);
    declare(i + 1, ins, d + 1);
  };
  const play = (ins: number[], leader: number, trick: string[], tricksDone: number, d: number): void => {
    if (tricksDone === 4) return;
    const li = ins.indexOf(leader);
    const seat = ins[(li + trick.length) % ins.length];
    for (const c of naiveLegal(hands[seat], trick)) {
      if (d + 1 > depth) return;
      counts[d + 1]++;
      hands[seat].splice(hands[seat].indexOf(c), 1);
      const t = [...trick, c];
      if (t.length === ins.length) {
        const w = ins[(li + naiveWinner(t)) % ins.length];
        play(ins, w, [], tricksDone + 1, d + 1);
      } else {
        play(ins, leader, t, tricksDone, d + 1);
      }
      hands[seat].push(c);
    }
  };
  if (pos.potBefore === 0) {
    counts[0]++;
    play(order, order[0], [], 0, 0);
  } else {
    declare(0, [], 0);
  }
  return counts;
}

/** One hand as a sequence of moves (declarations 'yes'/'no', then cards), for the contract suite (naive.ts). */
class NaiveHand implements NaiveGame {
  private hands: string[][];
  private order: number[];
  /** Seats in, once the declarations are over; null while they go on. */
  private ins: number[] | null;
  private declared: number[] = [];
  private leader = 0;
  private trick: string[] = [];
  private tricks = 0;

  constructor(private readonly pos: NaivePos) {
    const n = pos.seats;
    this.hands = pos.hands.map((h) => [...h]);
    this.order = Array.from({ length: n }, (_, i) => (pos.dealer + 1 + i) % n);
    this.ins = null;
    if (pos.potBefore === 0) this.seat([...this.order]);
  }

  /** play among `ins` (the first in after the dealer leads), or nothing to play with fewer than two. */
  private seat(ins: number[]): void {
    this.ins = ins;
    this.leader = ins[0] ?? -1;
    if (ins.length < 2) this.tricks = 4;
  }

  moves(): string[] {
    if (this.ins === null) return ['yes', 'no'];
    if (this.tricks === 4) return [];
    const li = this.ins.indexOf(this.leader);
    const seat = this.ins[(li + this.trick.length) % this.ins.length];
    return naiveLegal(this.hands[seat], this.trick);
  }

  play(move: string): void {
    if (!this.moves().includes(move)) throw new Error(`naive: illegal move ${move}`);
    if (this.ins === null) {
      if (move === 'yes') this.declared.push(this.order[this.declared.length]);
      else this.declared.push(-1);
      if (this.declared.length === this.order.length) this.seat(this.declared.filter((s) => s >= 0));
      return;
    }
    const ins = this.ins;
    const li = ins.indexOf(this.leader);
    const seat = ins[(li + this.trick.length) % ins.length];
    this.hands[seat].splice(this.hands[seat].indexOf(move), 1);
    this.trick.push(move);
    if (this.trick.length === ins.length) {
      this.leader = ins[(li + naiveWinner(this.trick)) % ins.length];
      this.trick = [];
      this.tricks++;
    }
  }

  clone(): NaiveHand {
    const c = new NaiveHand(this.pos);
    c.hands = this.hands.map((h) => [...h]);
    c.ins = this.ins ? [...this.ins] : null;
    c.declared = [...this.declared];
    c.leader = this.leader;
    c.trick = [...this.trick];
    c.tricks = this.tricks;
    return c;
  }
}

/** The contract suite's view of the reference (../reference.ts). */
const anderleTwin: NaiveTwin = (state) => {
  const s = state as AnderleState;
  return new NaiveHand({ seats: s.seats, dealer: s.dealer, potBefore: s.potBefore, hands: dealtNames(s) });
};

/** What the contract suite plays: the tables, and the reference in lock-step with the engine. */
export const contract: ContractCase = {
  tables: [
    [2, {}],
    [4, {}],
    [7, {}],
    [11, {}],
    // pot=0: the empty-pot hand where everyone plays; the others declare first.
    [5, { pips: 'always', pot: 0 }],
  ],
  naive: anderleTwin,
};
