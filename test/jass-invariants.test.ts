/**
 * Random-play invariants (OpenSpiel style) for 3 and 4 players. The hot loop keeps its
 * own model of the deal in physical cards and checks the engine against it with no
 * `expect`: failures are collected and asserted once. The rules are re-derived here
 * from RULES.md (not from cards.ts tables), so a wrong table in the engine shows up as
 * a mismatch.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setSelect } from '../src/core/cardset.js';
import { cardName, PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { toPhysical } from '../src/games/hindersi-jass/cards.js';
import { JassMatch } from '../src/games/hindersi-jass/match.js';
import type { JassRecord } from '../src/games/hindersi-jass/record.js';
import { JassState } from '../src/games/hindersi-jass/state.js';
import { ctxFor, rig, slamMove } from './jass-helpers.js';

// --- Rules in physical cards (card = suit * 9 + rank, ranks 6 7 8 9 10 J Q K A) ---
const JACK = 5;
/** J-1: trump order by physical rank: 6 7 8 (9 = Nell, second) (10) (J = Puur, first) Q K A. */
const TRUMP_POWER = [0, 1, 2, 7, 3, 8, 4, 5, 6];
/** J-2 by physical rank. */
const PLAIN_PTS = [0, 0, 0, 0, 10, 2, 3, 4, 11];
const TRUMP_PTS = [0, 0, 0, 14, 10, 20, 3, 4, 11];
const suitOf = (p: number) => (p / 9) | 0;
const rankOf = (p: number) => p % 9;
/** PHYS[trump * 128 + code]: the engine's code back to the physical card (the only engine table used). */
const PHYS = new Int8Array(4 * 128).fill(-1);
for (let t = 0; t < 4; t++) for (let code = 0; code < 128; code++) PHYS[t * 128 + code] = toPhysical(t, code);
const POW2 = Float64Array.from({ length: PACK_SIZE }, (_, p) => 2 ** p);
const KEY = seedKey('jass-invariants');

function runDeals(seats: number, deals: number) {
  const state = new JassState(seats);
  const hand = 36 / seats;
  const deck = new Uint8Array(PACK_SIZE);
  const legal = newSets();
  const rng = new Rng();
  const holder = new Int8Array(PACK_SIZE); // seat holding each card now, -1 once played
  const trickCards = new Int8Array(4);
  const pts = new Int32Array(4);
  const won = new Int32Array(4);
  const failures: string[] = [];
  const counts = { sweeps: 0, puurExcused: 0, undertrumpBarred: 0, undertrumpFree: 0, lastTrick: 0 };
  const fail = (i: number, what: string) => {
    if (failures.length < 30) failures.push(`${seats} seats, deal ${i}: ${what}`);
  };

  for (let i = 0; i < deals; i++) {
    rng.reseed(KEY, seats, i);
    const dealer = i % seats;
    state.deal(ctxFor(dealer, seats), rng, deck);
    // Every eighth deal: a seat with many top trumps plays strong, the rest weak (J-5 comes up).
    const strong = i % 8 === 0 ? rng.below(seats) : -1;
    if (strong >= 0) rig(state, strong, 5 + rng.below(hand - 3), rng);
    const trump = state.trump;

    // C-3, C-4, J-3: hands disjoint, 36/seats each, covering the pack; the dealer holds the turn-up.
    holder.fill(-1);
    for (let seat = 0; seat < seats; seat++) {
      let n = 0;
      for (let l = 0; l < LANES; l++) {
        for (let m = state.dealt[seat * LANES + l]; m !== 0; m &= m - 1) {
          const p = PHYS[trump * 128 + ((l << 5) | (31 - Math.clz32(m & -m)))];
          if (p < 0 || holder[p] >= 0) fail(i, `card ${p} dealt twice or unknown`);
          else holder[p] = seat;
          n++;
        }
      }
      if (n !== hand) fail(i, `seat ${seat} dealt ${n} cards`);
    }
    const turnupP = PHYS[trump * 128 + state.turnup];
    if (holder.includes(-1)) fail(i, 'the pack is not covered');
    if (holder[turnupP] !== dealer || suitOf(turnupP) !== trump) fail(i, "turn-up not the dealer's trump");

    pts.fill(0);
    won.fill(0);
    let pos = 0;
    let trick = 0;
    let leader = (dealer + 1) % seats;
    let total = 0;
    while (!state.isTerminal()) {
      const seat = state.toMove;
      if (seat !== (leader + pos) % seats) {
        fail(i, `seat ${seat} to move, expected ${(leader + pos) % seats}`);
        break;
      }
      // J-4: the legal set, derived from the physical hand and the trick.
      const ledSuit = pos === 0 ? -1 : suitOf(trickCards[0]);
      let holdsLed = false;
      let otherTrump = false;
      let trumps = 0;
      let topTrump = -1;
      for (let j = 0; j < pos; j++)
        if (suitOf(trickCards[j]) === trump) topTrump = Math.max(topTrump, TRUMP_POWER[rankOf(trickCards[j])]);
      for (let p = 0; p < PACK_SIZE; p++) {
        if (holder[p] !== seat) continue;
        if (suitOf(p) === ledSuit) holdsLed = true;
        if (suitOf(p) === trump) {
          trumps++;
          if (rankOf(p) !== JACK) otherTrump = true;
        }
      }
      let want = 0;
      for (let p = 0; p < PACK_SIZE; p++) {
        if (holder[p] !== seat) continue;
        let ok: boolean;
        if (pos === 0) ok = true;
        else if (ledSuit === trump) ok = !otherTrump || suitOf(p) === trump;
        else if (!holdsLed) ok = true;
        else ok = suitOf(p) === ledSuit || (suitOf(p) === trump && TRUMP_POWER[rankOf(p)] > topTrump);
        if (ok) want += POW2[p];
      }
      if (pos > 0 && ledSuit === trump && trumps === 1 && !otherTrump) counts.puurExcused++;
      if (pos > 0 && ledSuit !== trump && topTrump >= 0 && trumps > 0) {
        if (holdsLed) counts.undertrumpBarred++;
        else counts.undertrumpFree++;
      }
      const n = state.legal(legal, 0);
      let got = 0;
      let k = 0;
      for (let l = 0; l < LANES; l++) {
        for (let m = legal[l]; m !== 0; m &= m - 1) {
          got += POW2[PHYS[trump * 128 + ((l << 5) | (31 - Math.clz32(m & -m)))]];
          k++;
        }
      }
      if (got !== want || k !== n) {
        fail(i, `ply ${state.plies}: legal ${n} cards ${got.toString(2)} != ${want.toString(2)}`);
        break;
      }
      const move = strong >= 0 ? slamMove(state, strong) : setSelect(legal, 0, rng.below(n));
      const p = PHYS[trump * 128 + move];
      if (holder[p] !== seat) fail(i, `seat ${seat} played ${cardName(p)} it does not hold`);
      holder[p] = -1;
      trickCards[pos++] = p;
      state.apply(move);
      if (pos < seats) continue;

      // C-5, J-1: the trick's winner, recomputed; J-2 its points and the last trick's 5.
      const led = suitOf(trickCards[0]);
      let best = -1;
      let bestPower = -1;
      let value = 0;
      for (let j = 0; j < seats; j++) {
        const c = trickCards[j];
        const r = rankOf(c);
        const isTrump = suitOf(c) === trump;
        value += isTrump ? TRUMP_PTS[r] : PLAIN_PTS[r];
        const power = isTrump ? 100 + TRUMP_POWER[r] : suitOf(c) === led ? r : -1;
        if (power > bestPower) {
          bestPower = power;
          best = j;
        }
      }
      if (trick === hand - 1) {
        value += 5;
        counts.lastTrick++;
      }
      const w = (leader + best) % seats;
      if (state.trickWinner[trick] !== w || state.trickValue[trick] !== value) {
        fail(i, `trick ${trick}: engine ${state.trickWinner[trick]}/${state.trickValue[trick]}, rules ${w}/${value}`);
      }
      pts[w] += value;
      won[w]++;
      total += value;
      trick++;
      pos = 0;
      leader = w; // the winner leads the next trick
    }

    // J-2, J-5: 157 in all; the sweeper is charged 0 and every other seat 157.
    if (trick !== hand || state.trick !== hand) fail(i, `${trick} tricks played`);
    if (total !== 157) fail(i, `points total ${total}`);
    let sweeper = -1;
    for (let seat = 0; seat < seats; seat++) if (won[seat] === hand) sweeper = seat;
    if (sweeper >= 0) counts.sweeps++;
    if (state.allTricks !== sweeper) fail(i, `allTricks ${state.allTricks}, rules ${sweeper}`);
    for (let seat = 0; seat < seats; seat++) {
      const charge = sweeper < 0 ? pts[seat] : seat === sweeper ? 0 : 157;
      if (state.seatPoints[seat] !== pts[seat] || state.charged[seat] !== charge) {
        fail(
          i,
          `seat ${seat}: points ${state.seatPoints[seat]}/${pts[seat]}, charged ${state.charged[seat]}/${charge}`,
        );
      }
      if (state.seatTricks[seat] !== won[seat]) fail(i, `seat ${seat} tricks`);
    }
  }
  return { failures, counts };
}

describe('hindersi-jass invariants over random deals', () => {
  for (const [seats, deals] of [
    [4, 25_000],
    [3, 20_000],
  ] as const) {
    it(`${deals} deals with ${seats} players: C-3/J-3 deal, J-4 legal sets, C-5/J-1 trick winners, each trick to the right player, J-2 points total 157, J-5 sweeps`, () => {
      const { failures, counts } = runDeals(seats, deals);
      expect(failures).toEqual([]);
      // The random deals reach every case the checks are about.
      expect(counts.sweeps).toBeGreaterThan(deals / 200);
      expect(counts.puurExcused).toBeGreaterThan(deals / 50);
      expect(counts.undertrumpBarred).toBeGreaterThan(deals / 10);
      expect(counts.undertrumpFree).toBeGreaterThan(deals / 10);
      expect(counts.lastTrick).toBe(deals);
    });
  }
});

// --- Whole matches ---

interface Score {
  partie: number;
  totals: number[];
  striche: number[];
}

const REQUIRED = [
  'dealer',
  'players',
  'kind',
  'hands',
  'turnup',
  'trump',
  'tricks',
  'points',
  'before',
  'after',
  'events',
];

/** The J-6 Decision, written again: +1 with two others strictly above, -1 with two strictly below. */
function modelStriche(totals: number[]): number[] {
  return totals.map((t) => {
    const more = totals.filter((o) => o > t).length;
    const fewer = totals.filter((o) => o < t).length;
    return more >= 2 ? 1 : fewer >= 2 ? -1 : 0;
  });
}

describe('hindersi-jass matches (J-5, J-6, RECORD.md)', () => {
  for (const [seats, matches, partien] of [
    [4, 150, 4],
    [3, 150, 4],
    [4, 50, 1],
  ] as const) {
    it(`${matches} random matches of ${partien} Partien with ${seats} players: totals, Striche, match end, metrics and deal records`, () => {
      const failures: string[] = [];
      const fail = (mi: number, d: number, what: string) => {
        if (failures.length < 30) failures.push(`match ${mi} deal ${d}: ${what}`);
      };
      const state = new JassState(seats);
      const rng = new Rng();
      const legal = newSets();
      const dealMetrics = new Float64Array(12);
      const matchMetrics = new Float64Array(12);
      let deals = 0;
      let sweeps = 0;
      let ties = 0;
      for (let mi = 0; mi < matches; mi++) {
        const match = new JassMatch(seats, partien, false, mi);
        match.recording = true;
        const zero = () => Array.from({ length: seats }, () => 0);
        const model: Score = { partie: 0, totals: zero(), striche: zero() };
        const matchPoints = zero();
        let prevAfter = JSON.stringify(model);
        for (let d = 0; !match.over; d++) {
          if (d >= partien * seats) {
            fail(mi, d, 'match does not end');
            break;
          }
          rng.reseed(KEY, 100 + seats, mi, d);
          match.startDeal(state, rng);
          deals++;
          if (state.dealer !== (mi + d) % seats) fail(mi, d, `dealer ${state.dealer}`);
          if (state.partieDeal !== d % seats || state.partieDeals !== seats) fail(mi, d, 'partie deal');
          if (Array.from(state.partieTotals.subarray(0, seats)).join() !== model.totals.join())
            fail(mi, d, 'partie totals in the deal');
          // Some deals are stacked for a sweep (J-5).
          const strong = rng.below(6) === 0 ? rng.below(seats) : -1;
          if (strong >= 0) {
            rig(state, strong, 7 + rng.below(36 / seats - 5), rng);
            while (!state.isTerminal()) state.apply(slamMove(state, strong));
          } else {
            while (!state.isTerminal()) state.apply(setSelect(legal, 0, rng.below(state.legal(legal, 0))));
          }
          match.finishDeal(state);
          const rec = match.record(state);

          // RECORD.md: the game's fields, JSON-safe, `before` = the previous `after`.
          for (const f of REQUIRED) if (!(f in rec)) fail(mi, d, `record lacks ${f}`);
          if (JSON.stringify(JSON.parse(JSON.stringify(rec))) !== JSON.stringify(rec))
            fail(mi, d, 'record is not plain JSON');
          if (JSON.stringify(rec.before) !== prevAfter)
            fail(mi, d, `before ${JSON.stringify(rec.before)} != previous after ${prevAfter}`);
          prevAfter = JSON.stringify(rec.after);
          checkDealRecord(rec, state, (what) => fail(mi, d, what));

          // The model: J-5 charges into the totals, J-6 Striche after each Partie.
          const events: unknown[] = [];
          const points = rec.points;
          const winners = new Set(rec.tricks.map((t) => t.winner));
          const sweeper = winners.size === 1 ? [...winners][0] : -1;
          if (sweeper >= 0) {
            events.push({ type: 'all-tricks', seat: sweeper });
            sweeps++;
          }
          const charges = points.map((p, s) => (sweeper < 0 ? p : s === sweeper ? 0 : 157));
          charges.forEach((c, s) => {
            model.totals[s] += c;
            matchPoints[s] += c;
          });
          if ((d + 1) % seats === 0) {
            const st = modelStriche(model.totals);
            if (new Set(model.totals).size < seats) ties++;
            st.forEach((x, s) => (model.striche[s] += x));
            events.push({ type: 'partie', striche: st });
            model.totals = zero();
            model.partie++;
            if (model.partie === partien) {
              const best = Math.max(...model.striche);
              events.push({ type: 'match', winner: model.striche.flatMap((x, s) => (x === best ? [s] : [])) });
            }
          }
          if (JSON.stringify(rec.events) !== JSON.stringify(events))
            fail(mi, d, `events ${JSON.stringify(rec.events)} != ${JSON.stringify(events)}`);
          if (JSON.stringify(rec.after) !== JSON.stringify(model))
            fail(mi, d, `after ${JSON.stringify(rec.after)} != ${JSON.stringify(model)}`);
          if (JSON.stringify(rec.charged) !== JSON.stringify(charges)) fail(mi, d, 'charged');

          match.dealMetrics(state, dealMetrics);
          const low = Math.min(...charges);
          for (let s = 0; s < seats; s++) {
            const want = [charges[s], s === sweeper ? 1 : 0, charges[s] === low ? 1 : 0];
            if (want.some((v, k) => dealMetrics[s * 3 + k] !== v)) fail(mi, d, `deal metrics of seat ${s}`);
          }
          if (match.over !== (model.partie === partien)) fail(mi, d, `over ${match.over} after Partie ${model.partie}`);
          if (match.dealIndex !== d + 1) fail(mi, d, `dealIndex ${match.dealIndex}`);
        }
        match.matchMetrics(matchMetrics);
        const best = Math.max(...model.striche);
        for (let s = 0; s < seats; s++) {
          const want = [model.striche[s], model.striche[s] === best ? 1 : 0, matchPoints[s]];
          if (want.some((v, k) => matchMetrics[s * 3 + k] !== v)) fail(mi, -1, `match metrics of seat ${s}`);
        }
      }
      expect(failures).toEqual([]);
      expect(deals).toBe(matches * partien * seats);
      expect(sweeps).toBeGreaterThan(deals / 50);
      expect(ties).toBeGreaterThan(0);
    });
  }
});

/** RECORD.md's Hindersi-Jass deal record, checked against the state it describes. */
function checkDealRecord(rec: JassRecord, s: JassState, fail: (what: string) => void): void {
  const n = s.seats;
  const hands = rec.hands;
  if (hands.length !== n || hands.some((h) => h.length !== 36 / n) || new Set(hands.flat()).size !== 36) fail('hands');
  const name = (code: number) => cardName(toPhysical(s.trump, code));
  if (rec.turnup !== name(s.turnup) || !hands[s.dealer].includes(name(s.turnup))) fail('turnup');
  if (rec.trump !== SUITS[s.trump] || rec.trump !== String(rec.turnup).slice(-1)) fail('trump');
  if (rec.dealer !== s.dealer || rec.kind !== 'normal') fail('dealer/kind');
  if (JSON.stringify(rec.players) !== JSON.stringify(Array.from({ length: n }, (_, k) => (s.dealer + 1 + k) % n)))
    fail('players');
  const tricks = rec.tricks;
  if (tricks.length !== 36 / n) fail(`${tricks.length} tricks listed`);
  const points = Array.from({ length: n }, () => 0);
  const seen = new Set<string>();
  tricks.forEach((t, k) => {
    if (t.leader !== (k === 0 ? s.forehand : tricks[k - 1].winner)) fail(`trick ${k} leader`);
    if (t.taker !== t.winner || t.winner !== s.trickWinner[k] || t.points !== s.trickValue[k])
      fail(`trick ${k} winner/points`);
    if (t.cards.length !== n) fail(`trick ${k} has ${t.cards.length} cards`);
    t.cards.forEach((c, j) => {
      if (!hands[(t.leader + j) % n].includes(c)) fail(`trick ${k} card ${c} not from seat ${(t.leader + j) % n}`);
      seen.add(c);
    });
    points[t.winner] += t.points;
  });
  if (seen.size !== 36) fail('not every card played once');
  if (JSON.stringify(rec.points) !== JSON.stringify(points)) fail(`points ${JSON.stringify(rec.points)} != ${points}`);
  if (points.reduce((a, b) => a + b, 0) !== 157) fail('157');
}
