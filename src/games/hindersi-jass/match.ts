/**
 * The Hindersi-Jass match (J-5, J-6): each deal's charges are added to the Partie's
 * totals; after the Partie's 4 deals (3 with 3 players) each seat gets a Strich (+1),
 * nothing or a Nuller (-1); a match is `partien` Partien and the most net Striche wins
 * (ties share the win). The deal passes to the next seat after every deal (C-2),
 * across Partien; the first dealer of match `index` is seat `index mod seats`.
 *
 * **Decision** (J-6, covering ties): a seat gets +1 if at least two others have
 * strictly more points, -1 if at least two others have strictly fewer, else 0. Without
 * ties that is the two lowest +1 and the two highest -1 with 4 players, the lowest +1
 * and the highest -1 with 3; tied seats never get a Strich the others do not.
 *
 * **Decisions** (the rules are silent; these concern tafel's bookkeeping, not play):
 * - the first dealer of match `index` is seat `index mod seats`, so that a run's
 *   matches (and single deals) spread the deal over the seats;
 * - a single-deal match (`--deals`) scores its deal into the Partie totals but ends
 *   before any Partie is complete: no Striche, no `partie` or `match` event;
 * - after the match's last deal, `after` (RECORD.md) has the Partie reset applied:
 *   `partie` equals `partien` and the totals are 0.
 */
import { suitOf } from '../../core/french.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { BoardDeal, Match } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { PACK } from './cards.js';
import { writeJassFacts } from './facts.js';
import { jassRecord, type JassEvent, type JassRecord, type JassScore } from './record.js';
import { MAX_PLAYERS, type DealContext, type JassState } from './state.js';

export const DEFAULT_PARTIEN = 4;

/** Deals in a Partie (J-6): one per seat. */
function partieDealsFor(seats: number): number {
  return seats;
}

/** J-6 with its Decision: +1, 0 or -1 for each of the `seats` totals, written to `out`. */
export function partieStriche(totals: ArrayLike<number>, seats: number, out: Int32Array | number[]): void {
  for (let s = 0; s < seats; s++) {
    let more = 0;
    let fewer = 0;
    for (let o = 0; o < seats; o++) {
      if (totals[o] > totals[s]) more++;
      else if (totals[o] < totals[s]) fewer++;
    }
    out[s] = more >= 2 ? 1 : fewer >= 2 ? -1 : 0;
  }
}

export class JassMatch implements Match<JassState, JassRecord> {
  dealIndex = 0;
  over = false;
  /** Set by the harness when it writes deal records, so that plain runs build no objects. */
  recording = false;

  private readonly seats: number;
  private readonly partieDeals: number;
  private dealer = 0;
  private partie = 0;
  private partieDeal = 0;
  private readonly totals = new Int32Array(MAX_PLAYERS);
  private readonly striche = new Int32Array(MAX_PLAYERS);
  /** Points charged over the whole match, by seat. */
  private readonly matchPoints = new Float64Array(MAX_PLAYERS);
  private readonly delta = new Int32Array(MAX_PLAYERS);
  private readonly deck = new Uint8Array(36);
  private readonly ctx: DealContext & { totals: Int32Array } = {
    dealer: 0,
    partieDeal: 0,
    partieDeals: 4,
    totals: new Int32Array(MAX_PLAYERS),
  };
  // For records only: the score before the deal and the events it caused.
  private before: JassScore | null = null;
  private events: JassEvent[] = [];

  constructor(
    seats: number,
    private readonly partien: number,
    private readonly singleDeal: boolean,
    index: number,
  ) {
    this.seats = seats;
    this.partieDeals = partieDealsFor(seats);
    this.reset(index);
  }

  reset(index: number): void {
    this.dealIndex = 0;
    this.over = false;
    this.dealer = index % this.seats;
    this.partie = 0;
    this.partieDeal = 0;
    for (let s = 0; s < MAX_PLAYERS; s++) {
      this.totals[s] = 0;
      this.striche[s] = 0;
      this.matchPoints[s] = 0;
    }
    this.before = null;
    if (this.events.length > 0) this.events.length = 0; // a length store is a runtime call even on an empty array
  }

  startDeal(state: JassState, cards: Rng): void {
    state.deal(this.context(), cards, this.deck);
  }

  startBoard(state: JassState, board: BoardDeal): void {
    this.dealer = board.dealer;
    const hands = new Int32Array(MAX_PLAYERS * LANES);
    const turnup = dealFrenchBoard(PACK, board, hands);
    const trump = suitOf(turnup);
    state.begin(this.context(), trump, PACK.toCode(trump, turnup), hands);
  }

  /** The next deal's context (and a fresh record of it). */
  private context(): DealContext {
    const ctx = this.ctx;
    ctx.dealer = this.dealer;
    ctx.partieDeal = this.partieDeal;
    ctx.partieDeals = this.partieDeals;
    for (let s = 0; s < MAX_PLAYERS; s++) ctx.totals[s] = this.totals[s];
    if (this.recording) {
      this.before = null;
      this.events.length = 0;
    }
    return ctx;
  }

  finishDeal(state: JassState): void {
    const n = this.seats;
    this.before = this.recording ? this.score() : null;
    const events = this.recording ? this.events : null;
    for (let s = 0; s < n; s++) {
      this.totals[s] += state.charged[s];
      this.matchPoints[s] += state.charged[s];
    }
    if (state.allTricks >= 0) events?.push({ type: 'all-tricks', seat: state.allTricks });
    this.partieDeal++;
    if (!this.singleDeal && this.partieDeal === this.partieDeals) {
      partieStriche(this.totals, n, this.delta);
      for (let s = 0; s < n; s++) {
        this.striche[s] += this.delta[s];
        this.totals[s] = 0;
      }
      events?.push({ type: 'partie', striche: Array.from(this.delta.subarray(0, n)) });
      this.partie++;
      this.partieDeal = 0;
      if (this.partie === this.partien) events?.push({ type: 'match', winner: this.winners() });
    }
    this.dealer = (this.dealer + 1) % n;
    this.dealIndex++;
    this.over = this.singleDeal || this.partie >= this.partien;
  }

  facts(state: JassState, deal: Float64Array, seats: Float64Array): void {
    writeJassFacts(state, deal, seats);
  }

  /** The seats with the most net Striche (ties share the win). */
  private winners(): number[] {
    let best = -Infinity;
    for (let s = 0; s < this.seats; s++) best = Math.max(best, this.striche[s]);
    const out: number[] = [];
    for (let s = 0; s < this.seats; s++) if (this.striche[s] === best) out.push(s);
    return out;
  }

  static readonly dealMetricKeys = ['points', 'allTricks', 'fewest'] as const;
  static readonly matchMetricKeys = ['striche', 'won', 'points'] as const;

  dealMetrics(state: JassState, out: Float64Array): void {
    const k = JassMatch.dealMetricKeys.length;
    const n = this.seats;
    let low = Infinity;
    for (let s = 0; s < n; s++) low = Math.min(low, state.charged[s]);
    for (let s = 0; s < n; s++) {
      out[s * k] = state.charged[s];
      out[s * k + 1] = state.allTricks === s ? 1 : 0;
      out[s * k + 2] = state.charged[s] === low ? 1 : 0;
    }
  }

  matchMetrics(out: Float64Array): void {
    const k = JassMatch.matchMetricKeys.length;
    let best = -Infinity;
    for (let s = 0; s < this.seats; s++) best = Math.max(best, this.striche[s]);
    for (let s = 0; s < this.seats; s++) {
      out[s * k] = this.striche[s];
      out[s * k + 1] = this.striche[s] === best ? 1 : 0;
      out[s * k + 2] = this.matchPoints[s];
    }
  }

  private score(): JassScore {
    const n = this.seats;
    return {
      partie: this.partie,
      totals: Array.from(this.totals.subarray(0, n)),
      striche: Array.from(this.striche.subarray(0, n)),
    };
  }

  record(state: JassState): JassRecord {
    return jassRecord(state, this.before, this.score(), [...this.events]);
  }
}
