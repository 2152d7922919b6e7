/**
 * The Viersche match (V-7, V-9, V-10): games of one or two deals, each won game
 * erasing rungs of the winners' ladder, sets of four rungs, frame marks for the
 * losers of a set, and the match lost by the team that reaches four frame marks.
 */
import { suitOf } from '../../core/french.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { BoardDeal, Match } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { PACK } from './cards.js';
import { writeVierscheFacts } from './facts.js';
import { vierscheRecord, type VierscheEvent, type VierscheRecord, type VierscheScore } from './record.js';
import { SEATS, type DealContext, type VierscheState } from './state.js';

const RUNGS = 4;
const FRAME_LIMIT = 4;
/** What each team needs in a first deal (V-7). */
export const FIRST_TARGET = 100;
/** The points of the leading team that an undecided first deal writes down: 70 to 99 (V-7). */
export const CARRY_MIN = 70;

/**
 * V-7: the targets of a second deal after the first left `team` leading with `points`:
 * the leader needs 100 - x more, the other team x - 40 (30 each at 70-70).
 */
export function carriedTargets(team: number, points: number, out: [number, number]): void {
  out[team] = FIRST_TARGET - points;
  out[1 - team] = points - 40;
}

export class VierscheMatch implements Match<VierscheState, VierscheRecord> {
  dealIndex = 0;
  over = false;
  private dealer: number;
  private readonly rungs: [number, number] = [RUNGS, RUNGS];
  private readonly frame: [number, number] = [0, 0];
  private readonly setsWon: [number, number] = [0, 0];
  /** Team and points written below the ladder after an undecided first deal. */
  private carryTeam = -1;
  private carryPoints = 0;
  private matchLoser = -1;
  private readonly deck = new Uint8Array(36);
  private readonly ctx: { dealer: number; targets: [number, number]; secondDeal: boolean } = {
    dealer: 0,
    targets: [FIRST_TARGET, FIRST_TARGET],
    secondDeal: false,
  };
  // For records only: the score before the deal and the events it caused.
  private before: VierscheScore | null = null;
  private events: VierscheEvent[] = [];
  private dealRungsErased = 0;

  constructor(
    private readonly singleDeal: boolean,
    index: number,
  ) {
    this.dealer = 0;
    this.reset(index);
  }

  reset(index: number): void {
    this.dealIndex = 0;
    this.over = false;
    this.dealer = index % SEATS;
    this.rungs[0] = this.rungs[1] = RUNGS;
    this.frame[0] = this.frame[1] = 0;
    this.setsWon[0] = this.setsWon[1] = 0;
    this.carryTeam = -1;
    this.carryPoints = 0;
    this.matchLoser = -1;
    this.before = null;
    if (this.events.length > 0) this.events.length = 0; // a length store is a runtime call even on an empty array
    this.dealRungsErased = 0;
  }

  startDeal(state: VierscheState, cards: Rng): void {
    state.deal(this.context(), cards, this.deck);
  }

  startBoard(state: VierscheState, board: BoardDeal): void {
    this.dealer = board.dealer;
    const hands = new Int32Array(SEATS * LANES);
    const turnup = dealFrenchBoard(PACK, board, hands);
    const trump = suitOf(turnup);
    state.begin(this.context(), trump, PACK.toCode(trump, turnup), hands);
  }

  /** The next deal's context (and a fresh record of it). */
  private context(): DealContext {
    const ctx = this.ctx;
    ctx.dealer = this.dealer;
    if (this.carryTeam < 0) {
      ctx.targets[0] = ctx.targets[1] = FIRST_TARGET;
      ctx.secondDeal = false;
    } else {
      carriedTargets(this.carryTeam, this.carryPoints, ctx.targets);
      ctx.secondDeal = true;
    }
    if (this.recording) {
      this.before = null;
      this.events.length = 0;
    }
    return ctx;
  }

  finishDeal(state: VierscheState): void {
    this.before = this.recording ? this.score() : null;
    const events = this.recording ? this.events : null;
    this.dealRungsErased = 0;
    const winner = state.winner;
    if (winner < 0) {
      // An undecided first deal: the leading team's points are written down (team 0 at 70-70).
      const team = state.teamPoints(1) > state.teamPoints(0) ? 1 : 0;
      this.carryTeam = team;
      this.carryPoints = state.teamPoints(team);
      events?.push({ type: 'carry', team, points: this.carryPoints });
    } else {
      this.carryTeam = -1;
      const erased = Math.min(state.gameRungs, this.rungs[winner]);
      this.rungs[winner] -= erased;
      this.dealRungsErased = erased;
      events?.push({ type: 'game', team: winner, rungs: erased });
      if (this.rungs[winner] === 0) {
        const loser = 1 - winner;
        const marks = this.rungs[loser] === RUNGS ? 2 : 1;
        this.frame[loser] += marks;
        this.setsWon[winner]++;
        this.rungs[0] = this.rungs[1] = RUNGS;
        events?.push({ type: 'set', loser, marks });
        if (this.frame[loser] >= FRAME_LIMIT) {
          this.matchLoser = loser;
          events?.push({ type: 'match', loser });
        }
      }
    }
    this.dealer = (this.dealer + 1) % SEATS;
    this.dealIndex++;
    this.over = this.singleDeal || this.matchLoser >= 0;
  }

  /** Set by the harness when it writes deal records, so that plain runs build no objects. */
  recording = false;

  static readonly dealMetricKeys = ['points', 'won', 'rungs'] as const;
  static readonly matchMetricKeys = ['won', 'sets', 'marks'] as const;

  dealMetrics(state: VierscheState, out: Float64Array): void {
    const k = VierscheMatch.dealMetricKeys.length;
    for (let seat = 0; seat < SEATS; seat++) {
      const team = seat & 1;
      const won = state.winner === team;
      out[seat * k] = state.teamPoints(team);
      out[seat * k + 1] = won ? 1 : 0;
      out[seat * k + 2] = state.winner < 0 ? 0 : won ? this.dealRungsErased : -this.dealRungsErased;
    }
  }

  matchMetrics(out: Float64Array): void {
    const k = VierscheMatch.matchMetricKeys.length;
    for (let seat = 0; seat < SEATS; seat++) {
      const team = seat & 1;
      out[seat * k] = this.matchLoser >= 0 && this.matchLoser !== team ? 1 : 0;
      out[seat * k + 1] = this.setsWon[team];
      out[seat * k + 2] = this.frame[team];
    }
  }

  facts(state: VierscheState, deal: Float64Array, seats: Float64Array): void {
    writeVierscheFacts(state, deal, seats);
  }

  private score(): VierscheScore {
    return {
      rungs: [this.rungs[0], this.rungs[1]],
      carry: this.carryTeam < 0 ? null : { team: this.carryTeam, points: this.carryPoints },
      frame: [this.frame[0], this.frame[1]],
    };
  }

  record(state: VierscheState): VierscheRecord {
    return vierscheRecord(state, this.before, this.score(), [...this.events]);
  }
}
