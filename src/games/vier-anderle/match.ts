/**
 * The Vier-Anderle session: a ledger of the pot and each seat's balance
 * (balances plus pot always sum to 0), `hands` hands, and with `untilEmpty` on until
 * the pot is empty after them. The deal passes to the next seat after every hand (C-2).
 *
 * **Decisions** (bookkeeping the rules leave open):
 * - the first dealer of session `index` is seat `index mod seats`;
 * - `untilEmpty` plays on at most `MAX_EXTRA` hands beyond `hands` (a pot can grow
 *   for a long time); the session then ends with money in the pot;
 * - a single-deal session (`--deals`) is one hand from a pot of `startPot` stakes (variant
 *   `pot`): at 0 a type-1 hand, where everyone must play, so only card play is
 *   tested; above 0 a type-2 hand with declaring. The stakes in the pot are taken
 *   to have come from the players, as evenly as they divide, one more from each of the
 *   first seats after the dealer, so that balances and pot still sum to 0.
 */
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { BoardDeal, Match } from '../game.js';
import { parseCard } from './cards.js';
import { writeAnderleFacts } from './facts.js';
import { anderleRecord, type AnderleLedger, type AnderleRecord } from './record.js';
import { MAX_PLAYERS, type AnderleState, type DealContext } from './state.js';

export const DEFAULT_HANDS = 12;
/**
 * The pot of a single deal: 8 stakes, what an empty-pot hand at four leaves when one
 * player takes no trick (4 + 4), about the pot a session of heuristic players holds
 * between hands (results/anderle-pot.md). So single deals exercise declaring, the
 * heart of the game, by default.
 */
export const DEFAULT_POT = 8;
const MAX_EXTRA = 1000;

export class AnderleMatch implements Match<AnderleState, AnderleRecord> {
  dealIndex = 0;
  over = false;
  recording = false;

  private dealer = 0;
  pot = 0;
  readonly balances = new Int32Array(MAX_PLAYERS);
  private readonly deck = new Uint8Array(64);
  private readonly ctx: DealContext = { dealer: 0, potBefore: 0 };
  private before: AnderleLedger | null = null;

  constructor(
    private readonly seats: number,
    private readonly hands: number,
    private readonly untilEmpty: boolean,
    private readonly singleDeal: boolean,
    index: number,
    private readonly startPot = 0,
  ) {
    this.reset(index);
  }

  reset(index: number): void {
    this.dealIndex = 0;
    this.over = false;
    const n = this.seats;
    this.dealer = index % n;
    // Loops, not fill() and no remainders: reset runs once a single deal.
    for (let s = 0; s < n; s++) this.balances[s] = 0;
    this.pot = this.singleDeal ? this.startPot : 0;
    // The stakes in the pot came from the seats after the dealer, in turn.
    for (let i = 0, s = this.dealer; i < this.pot; i++) {
      s = s + 1 === n ? 0 : s + 1;
      this.balances[s]--;
    }
    this.before = null;
  }

  startDeal(state: AnderleState, cards: Rng): void {
    this.ctx.dealer = this.dealer;
    this.ctx.potBefore = this.pot;
    this.before = null;
    state.deal(this.ctx, cards, this.deck);
  }

  startBoard(state: AnderleState, board: BoardDeal): void {
    this.dealer = board.dealer;
    this.ctx.dealer = board.dealer;
    this.ctx.potBefore = this.pot;
    this.before = null;
    const hands = new Int32Array(this.seats * LANES);
    board.hands.forEach((hand, seat) => {
      for (const name of hand) {
        const code = parseCard(name);
        hands[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
      }
    });
    state.begin(this.ctx, hands);
  }

  finishDeal(state: AnderleState): void {
    if (this.recording) this.before = this.ledger();
    for (let s = 0; s < this.seats; s++) {
      this.balances[s] += state.delta[s];
      this.pot -= state.delta[s];
    }
    this.dealer = this.dealer + 1 === this.seats ? 0 : this.dealer + 1;
    this.dealIndex++;
    this.over =
      this.singleDeal ||
      (this.dealIndex >= this.hands && (!this.untilEmpty || this.pot === 0)) ||
      this.dealIndex >= this.hands + MAX_EXTRA;
  }

  static readonly dealMetricKeys = ['stakes', 'tricks', 'in'] as const;
  static readonly matchMetricKeys = ['balance'] as const;

  dealMetrics(state: AnderleState, out: Float64Array): void {
    const k = AnderleMatch.dealMetricKeys.length;
    for (let s = 0; s < this.seats; s++) {
      out[s * k] = state.delta[s];
      out[s * k + 1] = state.seatTricks[s];
      out[s * k + 2] = state.declared[s] === 1 ? 1 : 0;
    }
  }

  matchMetrics(out: Float64Array): void {
    for (let s = 0; s < this.seats; s++) out[s] = this.balances[s];
  }

  facts(state: AnderleState, deal: Float64Array, seats: Float64Array): void {
    writeAnderleFacts(state, this.pot, this.balances, deal, seats);
  }

  private ledger(): AnderleLedger {
    return { pot: this.pot, balances: Array.from(this.balances.subarray(0, this.seats)) };
  }

  record(state: AnderleState): AnderleRecord {
    return anderleRecord(state, this.before, this.ledger());
  }
}
