/**
 * Invariants over many random sessions, for every player count from 2 to 13: every card
 * dealt once (4 each, pips only when A-1 says), every move legal by the naive reference,
 * each trick to the right player, the money of each hand by the reference, the ledger
 * summing to zero and the pot a multiple of 4, the records chained.
 */
import { describe, expect, it } from 'vitest';
import { LANES, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES } from '../src/games/game.js';
import { codeName, isPip } from '../src/games/vier-anderle/cards.js';
import { vierAnderle } from '../src/games/vier-anderle/index.js';
import type { AnderleMatch } from '../src/games/vier-anderle/match.js';
import { naiveLegal, naiveMoney, naiveWinner } from '../src/games/vier-anderle/reference.js';

function runSessions(
  seats: number,
  sessions: number,
  pips: string,
): { hands: number; types: Set<number>; outcomes: Set<number> } {
  const table = { seats, rules: { pips, hands: 10, untilEmpty: false } };
  const st = vierAnderle.newState(table);
  const m = vierAnderle.newMatch(table, { singleDeal: false, index: 0 }) as AnderleMatch;
  m.recording = true;
  const rng = new Rng(seedKey(`inv-${seats}-${pips}`));
  const buf = new Int32Array(LANES);
  const types = new Set<number>();
  const outcomes = new Set<number>();
  let total = 0;
  for (let session = 0; session < sessions; session++) {
    m.reset(session);
    let prevAfter: unknown = { pot: 0, balances: new Array(seats).fill(0) };
    // Seats declare in with a seat- and session-dependent probability, so that void and sole hands occur.
    const pIn = Array.from({ length: seats }, (_, s) => ((s + session) % 4) / 4 + 0.1);
    while (!m.over) {
      m.startDeal(st, rng);
      total++;
      types.add(st.type);
      // The deal: 4 distinct cards each, pips only with the pips.
      const seen = new Set<number>();
      const hands: string[][] = [];
      for (let s = 0; s < seats; s++) {
        const codes = setToCodes(st.dealt, s * LANES);
        expect(codes.length).toBe(4);
        for (const c of codes) {
          expect(seen.has(c)).toBe(false);
          seen.add(c);
          if (!st.pips) expect(isPip(c)).toBe(false);
        }
        hands.push(codes.map(codeName));
      }
      let trick: string[] = [];
      let trickSeats: number[] = [];
      while (!st.isTerminal()) {
        const k = st.legal(buf, 0);
        const seat = st.toMove;
        if (st.decision === Decision.Declare) {
          expect(k).toBe(2);
          st.apply(rng.uniform() < pIn[seat] ? YES : NO);
          continue;
        }
        const legal = setToCodes(buf).map(codeName).sort();
        expect(legal).toEqual(naiveLegal(hands[seat], trick).sort());
        const c = setToCodes(buf)[rng.below(k)];
        const name = codeName(c);
        hands[seat].splice(hands[seat].indexOf(name), 1);
        trick.push(name);
        trickSeats.push(seat);
        const t = st.trick;
        st.apply(c);
        if (trick.length === st.players) {
          expect(st.trickWinner[t]).toBe(trickSeats[naiveWinner(trick)]);
          trick = [];
          trickSeats = [];
        }
      }
      outcomes.add(st.outcome);
      const ins: number[] = [];
      for (let i = 1; i <= seats; i++)
        if (st.declared[(st.dealer + i) % seats] === 1) ins.push((st.dealer + i) % seats);
      expect(Array.from(st.delta.subarray(0, seats))).toEqual(
        naiveMoney(seats, st.dealer, st.potBefore, ins, Array.from(st.seatTricks.subarray(0, seats))),
      );
      const potBefore = m.pot;
      expect(st.potBefore).toBe(potBefore);
      m.finishDeal(st);
      let sum = m.pot;
      for (let s = 0; s < seats; s++) sum += m.balances[s];
      expect(sum).toBe(0);
      expect(m.pot % 4).toBe(0);
      expect(m.pot).toBeGreaterThanOrEqual(0);
      const rec = m.record(st);
      expect(rec.before).toEqual(prevAfter);
      prevAfter = rec.after;
    }
  }
  return { hands: total, types, outcomes };
}

describe('invariants over random sessions (A-3, A-4, A-5..A-8)', () => {
  for (let seats = 2; seats <= 13; seats++) {
    it(`A-4: ${seats} players: legal moves, trick winners, money and the ledger`, () => {
      const r = runSessions(seats, seats <= 9 ? 40 : 20, 'auto');
      expect(r.types).toEqual(new Set([1, 2]));
      expect(r.outcomes.has(1)).toBe(true); // Outcome.Played; void and sole hands occur at the small tables
      if (seats <= 6) expect(r.outcomes.size).toBeGreaterThanOrEqual(2);
    });
  }
  it('A-1: pips=always with few players deals pips too', () => {
    const r = runSessions(4, 20, 'always');
    expect(r.hands).toBe(200);
  });
});
