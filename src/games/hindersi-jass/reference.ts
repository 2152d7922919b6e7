/**
 * A deliberately naive Hindersi-Jass deal, written from RULES.md (C-1 to C-5, J-1 to
 * J-5) and nothing else: cards are RECORD.md names ('10H', 'JD'), hands are arrays,
 * every question is answered by scanning lists. It shares no code with
 * the engine (this folder), so the perft and lock-step tests compare two independent
 * readings of the rules.
 */
import { SUITS } from '../../core/french.js';
import { dealtNames, type ContractCase, type NaiveGame, type NaiveTwin } from '../reference.js';

export function suitLetter(card: string): string {
  return card.slice(-1);
}
export function rankName(card: string): string {
  return card.slice(0, -1);
}

/** J-1: trumps from low to high: 6 7 8 10 Q K A, then the Nell (9), then the Puur (J). */
const TRUMP_ORDER = ['6', '7', '8', '10', 'Q', 'K', 'A', '9', 'J'];
/** J-1: a plain suit from low to high. */
const PLAIN_ORDER = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

/** J-2. */
function naivePoints(trump: string, card: string): number {
  const r = rankName(card);
  const isTrump = suitLetter(card) === trump;
  if (isTrump && r === 'J') return 20; // Puur
  if (isTrump && r === '9') return 14; // Nell
  return { A: 11, '10': 10, K: 4, Q: 3, J: 2 }[r] ?? 0;
}

/** C-5, J-1: the index (in `cards`, led first) of the card that wins a trick. */
function naiveTrickWinner(trump: string, cards: readonly string[]): number {
  const led = suitLetter(cards[0]);
  let best = -1;
  let bestPower = -1;
  cards.forEach((c, i) => {
    let power = -1;
    if (suitLetter(c) === trump) power = 100 + TRUMP_ORDER.indexOf(rankName(c));
    else if (suitLetter(c) === led) power = PLAIN_ORDER.indexOf(rankName(c));
    if (power > bestPower) {
      bestPower = power;
      best = i;
    }
  });
  return best;
}

export interface NaiveTrick {
  leader: number;
  cards: string[];
  winner: number;
  points: number;
}

export class NaiveJass {
  hands: string[][];
  /** Cards of the trick in progress, in playing order. */
  current: string[] = [];
  leader: number;
  tricks: NaiveTrick[] = [];
  points: number[];
  tricksWon: number[];
  toMove: number;
  over = false;

  constructor(
    readonly seats: number,
    readonly dealer: number,
    readonly trump: string,
    hands: readonly (readonly string[])[],
  ) {
    this.hands = hands.map((h) => [...h]);
    this.points = hands.map(() => 0);
    this.tricksWon = hands.map(() => 0);
    this.leader = (dealer + 1) % seats; // C-2, C-5: forehand leads
    this.toMove = this.leader;
  }

  get totalTricks(): number {
    return 36 / this.seats; // J-3: the whole pack is dealt
  }

  clone(): NaiveJass {
    const c = new NaiveJass(this.seats, this.dealer, this.trump, this.hands);
    c.current = [...this.current];
    c.leader = this.leader;
    c.tricks = this.tricks.map((t) => ({ ...t, cards: [...t.cards] }));
    c.points = [...this.points];
    c.tricksWon = [...this.tricksWon];
    c.toMove = this.toMove;
    c.over = this.over;
    return c;
  }

  private isTrump(card: string): boolean {
    return suitLetter(card) === this.trump;
  }

  private trumpPower(card: string): number {
    return TRUMP_ORDER.indexOf(rankName(card));
  }

  legalMoves(): string[] {
    if (this.over) return [];
    const hand = this.hands[this.toMove];
    if (this.current.length === 0) return [...hand]; // forehand and every leader: any card
    const led = suitLetter(this.current[0]);
    const trumps = hand.filter((c) => this.isTrump(c));
    if (led === this.trump) {
      // J-4: trumps led: a trump must be played, but the Puur is never forced.
      const others = trumps.filter((c) => rankName(c) !== 'J');
      return others.length > 0 ? trumps : [...hand];
    }
    const suit = hand.filter((c) => suitLetter(c) === led);
    if (suit.length === 0) return [...hand]; // void: anything, undertrumps included
    // Holding the suit: follow, or trump higher than every trump in the trick.
    const inTrick = this.current.filter((c) => this.isTrump(c)).map((c) => this.trumpPower(c));
    const top = inTrick.length ? Math.max(...inTrick) : -1;
    return [...suit, ...trumps.filter((c) => this.trumpPower(c) > top)];
  }

  play(card: string): void {
    if (!this.legalMoves().includes(card)) throw new Error(`naive: illegal move ${card}`);
    const seat = this.toMove;
    this.hands[seat] = this.hands[seat].filter((c) => c !== card);
    if (this.current.length === 0) this.leader = seat;
    this.current.push(card);
    if (this.current.length < this.seats) {
      this.toMove = (seat + 1) % this.seats;
      return;
    }
    const w = (this.leader + naiveTrickWinner(this.trump, this.current)) % this.seats;
    let points = this.current.reduce((p, c) => p + naivePoints(this.trump, c), 0);
    if (this.tricks.length === this.totalTricks - 1) points += 5; // J-2: the last trick
    this.tricks.push({ leader: this.leader, cards: this.current, winner: w, points });
    this.current = [];
    this.points[w] += points;
    this.tricksWon[w]++;
    this.leader = w;
    this.toMove = w;
    if (this.tricks.length === this.totalTricks) this.over = true;
  }

  /** J-5: the points each seat is charged for the deal. */
  charged(): number[] {
    const slam = this.tricksWon.findIndex((t) => t === this.totalTricks);
    return this.points.map((p, seat) => (slam < 0 ? p : seat === slam ? 0 : 157));
  }
}

/** Number of card sequences of exactly `depth` cards. */
export function naivePerft(g: NaiveJass, depth: number): number {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of g.legalMoves()) {
    const c = g.clone();
    c.play(m);
    n += naivePerft(c, depth - 1);
  }
  return n;
}

/** The contract suite's view of the reference (../reference.ts). */
const jassTwin: NaiveTwin = (state) =>
  adapt(new NaiveJass(state.seats, state.dealer, SUITS[state.trump], dealtNames(state)));

function adapt(g: NaiveJass): NaiveGame {
  return { moves: () => g.legalMoves(), play: (m) => g.play(m), clone: () => adapt(g.clone()) };
}

/** What the contract suite plays: the tables, and the reference in lock-step with the engine. */
export const contract: ContractCase = {
  tables: [
    [4, {}],
    [3, {}],
  ],
  naive: jassTwin,
};
