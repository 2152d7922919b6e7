/**
 * The Hindersche rubber (RULES.md H-3 to H-9): games of two phases on the slate,
 * playoffs as deals of their own, drop-outs, the double loss, frame marks, and the
 * settlement of the rubber at the tariff.
 *
 * Flow. Each deal is either normal (every seat still in plays) or a playoff (only the
 * seats of the first open tie play). `finishDeal` scores it with score.ts, applies
 * what is settled, queues the ties left open, and then, in this order: drop-outs in
 * phase 2 (a seat that erased its last mark), the end of the game when one seat is
 * left, the end of phase 1 (once no tie is open and the slate holds 4 marks or more:
 * the double loss, or the seats without a mark drop out), and the end of the rubber
 * after `games` games.
 *
 * Dealers (H-7, H-8). A normal deal is dealt by the first seat still in counting from
 * the seat after the last normal dealer. A playoff is dealt by the first tied seat
 * counting from that same seat (the one due to deal next), and the next tied seat
 * after him leads; the normal rotation then resumes as if the playoff had not been.
 * Decision: the first dealer of a match is seat `index mod 4` (as in Viersche), and
 * the rotation runs on across the games of a rubber.
 *
 * Single deals (`--deals`): one normal phase-1 deal from a fresh slate. Decision: a
 * tie it leaves open is not played off (the record lists it in `ties`); the deal's
 * `marks` metric counts it as a fair lottery (places / tied).
 */
import { suitOf } from '../../core/french.js';
import { LANES } from '../../core/cardset.js';
import { lowestBit } from '../../core/bits.js';
import type { Rng } from '../../core/rng.js';
import type { BoardDeal, Match } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { PACK } from './cards.js';
import { writeHinderscheFacts } from './facts.js';
import {
  hinderscheRecord,
  type HinderscheEvent,
  type HinderscheRecord,
  type HinderscheScore,
  type HinderscheTie,
} from './record.js';
import { Kind, SLATE_TARGET, Settlement, TieFor, WHY_NAMES } from './score.js';
import { SEATS, type DealContext, type HinderscheState } from './state.js';

/** The rule variants a match needs (index.ts resolves them from `--rules`). */
export interface HinderscheRules {
  readonly schleipfen: boolean;
  readonly games: number;
  readonly tariff: number;
}

export const DEFAULT_RULES: HinderscheRules = { schleipfen: false, games: 4, tariff: 5 };

/** Most ties open at once: two from one deal, each possibly replayed in turn. */
const MAX_TIES = 4;

/** H-9: what each seat wins (+) or pays (-) when each frame mark pays `tariff` to every other seat. */
export function settlement(frame: ArrayLike<number>, tariff: number): number[] {
  let total = 0;
  for (let s = 0; s < SEATS; s++) total += frame[s];
  return Array.from({ length: SEATS }, (_, s) => tariff * (total - frame[s] - (SEATS - 1) * frame[s]));
}

export class HinderscheMatch implements Match<HinderscheState, HinderscheRecord> {
  dealIndex = 0;
  over = false;
  /** Set by the harness when it writes deal records, so that plain runs build no objects. */
  recording = false;

  private readonly rules: HinderscheRules;

  // The rubber.
  /** Index of the game being played (equal to `games` once the rubber is over). */
  game = 0;
  readonly frame = new Int32Array(SEATS);
  /** Marches made by each seat in the rubber's deals (playoffs included). */
  readonly marches = new Int32Array(SEATS);
  // The game.
  phase = 1;
  readonly slate = new Int8Array(SEATS);
  /** Seats still in the game, as a bit mask. */
  inMask = 15;
  /** The last normal dealer; the seat after him is due to deal (H-7). */
  lastDealer = 3;
  // Open ties, in the order they are to be played off.
  ties = 0;
  private readonly tieFor = new Int8Array(MAX_TIES);
  private readonly tieMask = new Int8Array(MAX_TIES);
  private readonly tiePlaces = new Int8Array(MAX_TIES);

  // The deal in progress.
  /** The game of the rubber the deal belongs to (`game` moves on when it ends one). */
  private dealGame = 0;
  /** How the deal ended its game: 0 it did not, else the frame marks the loser got (2: a double loss). */
  private dealEnd = 0;
  private readonly ctx: DealContext;
  private readonly settled = new Settlement();
  /** Marks the deal moved by seat (settled), and the seat metric `marks`. */
  private readonly dealMarks = new Float64Array(SEATS);
  private readonly deck = new Uint8Array(36);

  // For records only.
  private before: HinderscheScore | null = null;
  private events: HinderscheEvent[] = [];
  private newTies: HinderscheTie[] = [];
  private playoff: HinderscheTie | null = null;

  constructor(
    rules: HinderscheRules,
    private readonly singleDeal: boolean,
    index: number,
  ) {
    this.rules = rules;
    this.ctx = {
      dealer: 0,
      mask: 15,
      phase: 1,
      kind: Kind.Normal,
      slate: this.slate,
      playoffFor: 0,
      playoffPlaces: 0,
      schleipfen: rules.schleipfen,
    };
    this.reset(index);
  }

  reset(index: number): void {
    this.dealIndex = 0;
    this.over = false;
    this.game = 0;
    // Loops, not fill(): a typed array's fill is a runtime call, and reset runs once a single deal.
    for (let s = 0; s < SEATS; s++) this.frame[s] = this.marches[s] = this.slate[s] = 0;
    this.phase = 1;
    this.inMask = 15;
    this.lastDealer = (index + SEATS - 1) % SEATS;
    this.ties = 0;
    this.before = null;
    if (this.events.length > 0) this.events.length = 0; // a length store is a runtime call even on an empty array
    if (this.newTies.length > 0) this.newTies.length = 0;
    this.playoff = null;
  }

  /** The seat due to deal next (H-7): the one after the last normal dealer. */
  get dueToDeal(): number {
    return (this.lastDealer + 1) % SEATS;
  }

  startDeal(state: HinderscheState, cards: Rng): void {
    state.deal(this.context(), cards, this.deck);
  }

  startBoard(state: HinderscheState, board: BoardDeal): void {
    // A fresh rubber: every seat is in, and the board's dealer deals the first deal.
    this.lastDealer = (board.dealer + SEATS - 1) % SEATS;
    const ctx = this.context();
    const hands = new Int32Array(SEATS * LANES);
    const turnup = dealFrenchBoard(PACK, board, hands);
    const trump = suitOf(turnup);
    state.begin(ctx, trump, PACK.toCode(trump, turnup), hands, new Int32Array(LANES));
  }

  /** The next deal's context (and a fresh record of it). */
  private context(): DealContext {
    const ctx = this.ctx;
    ctx.phase = this.phase;
    if (this.ties > 0) {
      // H-8: the first open tie is played off, dealt by the tied seat first due to deal.
      const tied = this.tieMask[0];
      ctx.kind = Kind.Playoff;
      ctx.mask = tied;
      ctx.dealer = firstIn(tied, this.dueToDeal);
      ctx.playoffFor = this.tieFor[0];
      ctx.playoffPlaces = this.tiePlaces[0];
    } else {
      ctx.kind = Kind.Normal;
      ctx.mask = this.inMask;
      ctx.dealer = firstIn(this.inMask, this.dueToDeal);
      ctx.playoffFor = TieFor.None;
      ctx.playoffPlaces = 0;
    }
    if (this.recording) {
      this.before = this.score();
      this.events = [];
      this.newTies = [];
      this.playoff = ctx.kind === Kind.Playoff ? tieOf(ctx.playoffFor, ctx.mask, ctx.playoffPlaces) : null;
    }
    this.dealGame = this.game;
    this.dealEnd = 0;
    return ctx;
  }

  finishDeal(state: HinderscheState): void {
    const rec = this.recording;
    const events = rec ? this.events : null;
    const st = this.settled;
    state.settle(st);
    if (state.kind === Kind.Playoff) this.dropTie();
    else this.lastDealer = state.dealer;
    if (st.marcher >= 0) this.marches[st.marcher]++;

    if (events) {
      // Settled marks: erasures, then additions, each in playing order (so the events read).
      for (let pass = 0; pass < 2; pass++) {
        for (let k = 0; k < state.players; k++) {
          const s = state.order[k];
          const n = st.delta[s];
          if (n === 0 || n < 0 !== (pass === 0)) continue;
          this.slate[s] += n;
          events.push({ type: 'mark', seat: s, n, why: WHY_NAMES[st.why[s]] });
        }
      }
    } else {
      // The same slate, in any order (a seat outside the deal has no change).
      for (let s = 0; s < SEATS; s++) this.slate[s] += st.delta[s];
    }
    // A single deal counts an open tie as a lottery (expected: delta and the tie's share).
    const lottery = this.singleDeal && st.ties > 0;
    for (let s = 0; s < SEATS; s++)
      this.dealMarks[s] = lottery ? st.delta[s] + (st.expected(s) - st.delta[s]) : st.delta[s];
    // New ties are played before any tie still open (a tied playoff is replayed at once).
    this.pushTies(st);
    if (rec) for (let t = 0; t < st.ties; t++) this.newTies.push(tieOf(st.tieFor[t], st.tieMask[t], st.tiePlaces[t]));

    if (this.phase === 2) {
      // H-6: a seat that erased its last mark drops out; one seat left has lost the game.
      for (let k = 0; k < state.players; k++) {
        const s = state.order[k];
        if (this.slate[s] === 0 && ((this.inMask >>> s) & 1) === 1) {
          this.inMask &= ~(1 << s);
          events?.push({ type: 'out', seat: s });
        }
      }
      if (popcount4(this.inMask) === 1) this.endGame(lowestBit(this.inMask), 1, events);
    } else if (this.ties === 0) {
      let M = 0;
      let holder = -1;
      for (let s = 0; s < SEATS; s++) {
        M += this.slate[s];
        if (this.slate[s] > 0) holder = holder === -1 ? s : -2;
      }
      if (M >= SLATE_TARGET) {
        if (holder >= 0) {
          // H-5: every mark on one seat: the double loss, no phase 2.
          this.endGame(holder, 2, events);
        } else {
          // H-4: phase 1 ends; the seats with a clean slate drop out.
          this.phase = 2;
          for (let k = 1; k <= SEATS; k++) {
            const s = (this.lastDealer + k) % SEATS;
            if (this.slate[s] === 0) {
              this.inMask &= ~(1 << s);
              events?.push({ type: 'out', seat: s });
            }
          }
        }
      }
    }
    this.dealIndex++;
    this.over = this.singleDeal || this.game >= this.rules.games;
  }

  private endGame(loser: number, marks: number, events: HinderscheEvent[] | null): void {
    this.dealEnd = marks;
    this.frame[loser] += marks;
    events?.push({ type: 'game', loser, frame: marks });
    this.game++;
    this.phase = 1;
    for (let s = 0; s < SEATS; s++) this.slate[s] = 0;
    this.inMask = 15;
    this.ties = 0;
    if (this.game >= this.rules.games)
      events?.push({ type: 'rubber', balance: settlement(this.frame, this.rules.tariff) });
  }

  private dropTie(): void {
    for (let t = 1; t < this.ties; t++) {
      this.tieFor[t - 1] = this.tieFor[t];
      this.tieMask[t - 1] = this.tieMask[t];
      this.tiePlaces[t - 1] = this.tiePlaces[t];
    }
    this.ties--;
  }

  private pushTies(st: Settlement): void {
    const k = st.ties;
    if (k === 0) return;
    if (this.ties + k > MAX_TIES) throw new Error('hindersche: too many open ties');
    for (let t = this.ties - 1; t >= 0; t--) {
      this.tieFor[t + k] = this.tieFor[t];
      this.tieMask[t + k] = this.tieMask[t];
      this.tiePlaces[t + k] = this.tiePlaces[t];
    }
    for (let t = 0; t < k; t++) {
      this.tieFor[t] = st.tieFor[t];
      this.tieMask[t] = st.tieMask[t];
      this.tiePlaces[t] = st.tiePlaces[t];
    }
    this.ties += k;
  }

  /** Marks first: they are what a deal scores (H-4, H-6); points only decide them. */
  static readonly dealMetricKeys = ['marks', 'points', 'march'] as const;
  static readonly matchMetricKeys = ['balance', 'frame', 'lost', 'marches'] as const;

  dealMetrics(state: HinderscheState, out: Float64Array): void {
    const k = HinderscheMatch.dealMetricKeys.length;
    for (let seat = 0; seat < SEATS; seat++) {
      if (((state.mask >>> seat) & 1) === 0) {
        out[seat * k] = out[seat * k + 1] = out[seat * k + 2] = NaN;
        continue;
      }
      out[seat * k] = this.dealMarks[seat];
      out[seat * k + 1] = state.seatPoints[seat];
      out[seat * k + 2] = this.settled.marcher === seat ? 1 : 0;
    }
  }

  matchMetrics(out: Float64Array): void {
    const k = HinderscheMatch.matchMetricKeys.length;
    let total = 0;
    for (let s = 0; s < SEATS; s++) total += this.frame[s];
    for (let seat = 0; seat < SEATS; seat++) {
      const f = this.frame[seat];
      out[seat * k] = this.rules.tariff * (total - SEATS * f);
      out[seat * k + 1] = f;
      out[seat * k + 2] = f > 0 ? 1 : 0;
      out[seat * k + 3] = this.marches[seat];
    }
  }

  facts(state: HinderscheState, deal: Float64Array, seats: Float64Array): void {
    writeHinderscheFacts(state, this.dealGame, this.settled.marcher, this.dealEnd, deal, seats);
  }

  /** The scoring state as RECORD.md writes it (allocates). */
  score(): HinderscheScore {
    const inSeats: number[] = [];
    for (let s = 0; s < SEATS; s++) if ((this.inMask >>> s) & 1) inSeats.push(s);
    return {
      game: this.game,
      phase: this.phase,
      slate: Array.from(this.slate),
      in: inSeats,
      frame: Array.from(this.frame),
    };
  }

  /** The ties waiting for a playoff, first to be played first (allocates). */
  openTies(): HinderscheTie[] {
    const out: HinderscheTie[] = [];
    for (let t = 0; t < this.ties; t++) out.push(tieOf(this.tieFor[t], this.tieMask[t], this.tiePlaces[t]));
    return out;
  }

  record(state: HinderscheState): HinderscheRecord {
    return hinderscheRecord(state, {
      before: this.before,
      after: this.score(),
      events: [...this.events],
      playoff: this.playoff,
      newTies: [...this.newTies],
    });
  }
}

/** The first seat of `mask` counting from `from` (inclusive), in seat order. */
function firstIn(mask: number, from: number): number {
  for (let k = 0; k < SEATS; k++) {
    const s = (from + k) % SEATS;
    if ((mask >>> s) & 1) return s;
  }
  throw new Error('hindersche: nobody left to deal');
}

function popcount4(m: number): number {
  return (m & 1) + ((m >>> 1) & 1) + ((m >>> 2) & 1) + ((m >>> 3) & 1);
}

/**
 * A tie as RECORD.md writes it. Decision: `places` (an added field) appears only when
 * a tie is for more than one place, which only excess erasures (H-6) can cause.
 */
function tieOf(f: number, mask: number, places: number): HinderscheTie {
  const tied: number[] = [];
  for (let s = 0; s < SEATS; s++) if ((mask >>> s) & 1) tied.push(s);
  const tie: { for: 'most' | 'fewest'; tied: number[]; places?: number } = {
    for: f === TieFor.Most ? 'most' : 'fewest',
    tied,
  };
  if (places > 1) tie.places = places;
  return tie;
}
