/**
 * A deliberately naive Viersche deal, written from RULES.md (C-1 to C-5, V-1 to V-9)
 * and nothing else: cards are RECORD.md names ('10H', 'JD'), hands are arrays, every
 * question is answered by scanning lists. It shares no code with the engine (this folder),
 * so the perft and lock-step tests compare two independent readings of the rules.
 *
 * Claims are modelled as the engine models them (V-8): a false claim changes nothing,
 * so the claim question is put only when it would be correct: to the seat that just
 * won one of tricks 1..8 when its team has reached its target. Moves are card names,
 * 'claim' or 'pass'.
 */

export type NaiveMove = string;

import { SUITS } from '../../core/french.js';
import type { VierscheState } from './state.js';
import { dealtNames, type ContractCase, type NaiveGame, type NaiveTwin } from '../reference.js';

const CLAIM = 'claim';
const PASS = 'pass';

function suitLetter(card: string): string {
  return card.slice(-1);
}
function rankName(card: string): string {
  return card.slice(0, -1);
}
/** Clubs/spades are black, hearts/diamonds red (C-1). */
function sameColourSuit(suit: string): string {
  return { C: 'S', S: 'C', H: 'D', D: 'H' }[suit] ?? '?';
}

/** V-1: the trump suit plus the Kloei (the jack of the other suit of trump's colour). */
export function naiveIsTrump(trump: string, card: string): boolean {
  return suitLetter(card) === trump || (rankName(card) === 'J' && suitLetter(card) === sameColourSuit(trump));
}

/** The suit a card belongs to for following: 'T' for every trump. */
export function effectiveSuit(trump: string, card: string): string {
  return naiveIsTrump(trump, card) ? 'T' : suitLetter(card);
}

/** V-1: trumps from low to high. */
function trumpOrder(trump: string): string[] {
  return ['6', '7', '8', '9', '10', 'Q', 'K', 'A']
    .map((r) => r + trump)
    .concat(['J' + sameColourSuit(trump), 'J' + trump]);
}
/** V-2: a plain suit from low to high (the ten below the jack). */
function plainOrder(suit: string): string[] {
  return ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'].map((r) => r + suit);
}

/** V-3. */
export function naivePoints(trump: string, card: string): number {
  const r = rankName(card);
  if (r === 'J') return naiveIsTrump(trump, card) ? 12 : 2;
  return { A: 11, K: 4, Q: 3, '10': 10 }[r] ?? 0;
}

/**
 * C-5, V-4: the index (in `cards`) of the card that wins a trick. `ledSuit` is the
 * effective suit to follow; `excluded` is the index of a card that cannot win (the
 * face-down lead), or -1.
 */
export function naiveTrickWinner(trump: string, cards: readonly string[], ledSuit: string, excluded: number): number {
  let best = -1;
  let bestPower = -1;
  cards.forEach((c, i) => {
    if (i === excluded) return;
    let power = -1;
    if (naiveIsTrump(trump, c)) power = 100 + trumpOrder(trump).indexOf(c);
    else if (suitLetter(c) === ledSuit) power = plainOrder(ledSuit).indexOf(c);
    if (power > bestPower) {
      bestPower = power;
      best = i;
    }
  });
  if (best < 0) throw new Error('naive: nobody can win this trick');
  return best;
}

export interface NaiveTrick {
  leader: number;
  cards: string[];
  winner: number;
  points: number;
  facedown: boolean;
}

export class NaiveViersche {
  hands: string[][];
  /** Cards of the trick in progress, in playing order. */
  current: string[] = [];
  leader: number;
  tricks: NaiveTrick[] = [];
  teamPoints = [0, 0];
  teamTricks = [0, 0];
  /** Index of the trick at which each team first reached its target, or -1. */
  reachedAt = [-1, -1];
  phase: 'card' | 'claim' | 'over' = 'card';
  toMove: number;
  facedown = false;
  winner = -1;
  rungs = 0;
  claimedAfter = -1;

  constructor(
    readonly dealer: number,
    readonly trump: string,
    readonly targets: readonly [number, number],
    hands: readonly (readonly string[])[],
  ) {
    this.hands = hands.map((h) => [...h]);
    this.leader = (dealer + 1) % 4; // C-2, C-5: forehand leads
    this.toMove = this.leader;
  }

  clone(): NaiveViersche {
    const c = new NaiveViersche(this.dealer, this.trump, this.targets, this.hands);
    c.current = [...this.current];
    c.leader = this.leader;
    c.tricks = this.tricks.map((t) => ({ ...t, cards: [...t.cards] }));
    c.teamPoints = [...this.teamPoints];
    c.teamTricks = [...this.teamTricks];
    c.reachedAt = [...this.reachedAt];
    c.phase = this.phase;
    c.toMove = this.toMove;
    c.facedown = this.facedown;
    c.winner = this.winner;
    c.rungs = this.rungs;
    c.claimedAfter = this.claimedAfter;
    return c;
  }

  private isTrump(card: string): boolean {
    return naiveIsTrump(this.trump, card);
  }

  /** The suit to follow in the trick in progress ('T' after a face-down lead, V-4). */
  ledSuit(): string {
    if (this.tricks.length === 0 && this.facedown) return 'T';
    return effectiveSuit(this.trump, this.current[0]);
  }

  legalMoves(): NaiveMove[] {
    if (this.phase === 'over') return [];
    if (this.phase === 'claim') return [CLAIM, PASS];
    const hand = this.hands[this.toMove];
    const trumps = hand.filter((c) => this.isTrump(c));
    if (this.current.length === 0) {
      // V-4: forehand's first lead must be a trump if he has one; any card goes face down otherwise.
      if (this.tricks.length === 0 && trumps.length > 0) return trumps;
      return [...hand];
    }
    const led = this.ledSuit();
    if (led === 'T') return trumps.length > 0 ? trumps : [...hand]; // V-5: trumps led
    const suit = hand.filter((c) => effectiveSuit(this.trump, c) === led);
    return suit.length > 0 ? [...suit, ...trumps] : [...hand]; // V-5: follow or trump; void: anything
  }

  play(move: NaiveMove): void {
    if (!this.legalMoves().includes(move)) throw new Error(`naive: illegal move ${move}`);
    if (this.phase === 'claim') {
      if (move === CLAIM) {
        this.winner = this.toMove % 2;
        this.rungs = 1; // V-9: a claim always comes before the 9th trick
        this.claimedAfter = this.tricks.length - 1;
        this.phase = 'over';
      } else {
        this.phase = 'card';
      }
      return;
    }
    const seat = this.toMove;
    this.hands[seat] = this.hands[seat].filter((c) => c !== move);
    if (this.current.length === 0) {
      this.leader = seat;
      if (this.tricks.length === 0 && !this.isTrump(move)) this.facedown = true;
    }
    this.current.push(move);
    if (this.current.length < 4) {
      this.toMove = (seat + 1) % 4;
      return;
    }
    const facedown = this.tricks.length === 0 && this.facedown;
    const w = (this.leader + naiveTrickWinner(this.trump, this.current, this.ledSuit(), facedown ? 0 : -1)) % 4;
    const points = this.current.reduce((p, c) => p + naivePoints(this.trump, c), 0);
    this.tricks.push({ leader: this.leader, cards: this.current, winner: w, points, facedown });
    this.current = [];
    const team = w % 2;
    this.teamPoints[team] += points;
    this.teamTricks[team]++;
    const reached = this.teamPoints[team] >= this.targets[team];
    if (reached && this.reachedAt[team] < 0) this.reachedAt[team] = this.tricks.length - 1;
    this.leader = w;
    this.toMove = w;
    if (this.tricks.length === 9) {
      // V-8 Decision: played out, the team that reached its target first wins.
      const [r0, r1] = this.reachedAt;
      if (r0 >= 0 && (r1 < 0 || r0 < r1)) this.winner = 0;
      else if (r1 >= 0) this.winner = 1;
      if (this.winner >= 0) this.rungs = this.teamTricks[this.winner] === 9 ? 2 : 1;
      this.phase = 'over';
    } else if (reached) {
      this.phase = 'claim';
    }
  }
}

/** Number of move sequences of exactly `depth` moves (a deal that ends earlier counts 0). */
export function naivePerft(g: NaiveViersche, depth: number): number {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of g.legalMoves()) {
    const c = g.clone();
    c.play(m);
    n += naivePerft(c, depth - 1);
  }
  return n;
}

/** The contract suite's view of the reference (../reference.ts): claims are 'yes', passes 'no'. */
const vierscheTwin: NaiveTwin = (state) => {
  const s = state as VierscheState;
  return adapt(new NaiveViersche(s.dealer, SUITS[s.trump], [s.targets[0], s.targets[1]], dealtNames(s)));
};

function adapt(g: NaiveViersche): NaiveGame {
  const toNaive = (m: string) => (m === 'yes' ? CLAIM : m === 'no' ? PASS : m);
  return {
    moves: () => g.legalMoves().map((m) => (m === CLAIM ? 'yes' : m === PASS ? 'no' : m)),
    play: (m) => g.play(toNaive(m)),
    clone: () => adapt(g.clone()),
  };
}

/** What the contract suite plays: the tables, and the reference in lock-step with the engine. */
export const contract: ContractCase = {
  tables: [[4, {}]],
  naive: vierscheTwin,
};
