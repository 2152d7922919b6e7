/**
 * Random-play invariants (OpenSpiel style). The hot loop keeps its own model of the
 * deal in physical cards and checks the engine against it with no `expect`: failures
 * are collected and asserted once. The rules are re-derived here from RULES.md (not
 * from cards.ts tables), so a wrong table in the engine shows up as a mismatch.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setSelect } from '../src/core/cardset.js';
import { cardName, PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES, type DecisionKind } from '../src/games/game.js';
import { toPhysical } from '../src/games/viersche/cards.js';
import { VierscheMatch } from '../src/games/viersche/match.js';
import type { VierscheRecord } from '../src/games/viersche/record.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';

// --- Rules in physical cards (card = suit * 9 + rank, ranks 6 7 8 9 10 J Q K A) ---
const JACK = 5;
const TRUMP_SUIT = 4; // effective suit of every trump
/** EFF[trump * 36 + p]: the suit p follows as (0..3, or 4 for trumps: V-1). */
const EFF = new Uint8Array(4 * PACK_SIZE);
/** POWER[trump * 36 + p]: V-1 order among trumps (100 + 0..9), V-2 order within a plain suit (0..8). */
const POWER = new Uint8Array(4 * PACK_SIZE);
/** PTS[trump * 36 + p]: V-3. */
const PTS = new Uint8Array(4 * PACK_SIZE);
/** PHYS[trump * 128 + code]: the engine's code back to the physical card (the only engine table used). */
const PHYS = new Int8Array(4 * 128).fill(-1);
for (let t = 0; t < 4; t++) {
  for (let p = 0; p < PACK_SIZE; p++) {
    const suit = (p / 9) | 0;
    const rank = p % 9;
    const alt = suit === t && rank === JACK;
    const kloei = suit === (t ^ 1) && rank === JACK;
    const trump = suit === t || kloei;
    EFF[t * 36 + p] = trump ? TRUMP_SUIT : suit;
    // Trump: 6 7 8 9 10 Q K A (rank order without the jack), then Kloei, then Alt.
    POWER[t * 36 + p] = alt ? 109 : kloei ? 108 : trump ? 100 + (rank > JACK ? rank - 1 : rank) : rank;
    PTS[t * 36 + p] = alt || kloei ? 12 : [0, 0, 0, 0, 10, 2, 3, 4, 11][rank];
  }
  for (let code = 0; code < 128; code++) PHYS[t * 128 + code] = toPhysical(t, code);
}

function decisionOf(s: VierscheState): DecisionKind {
  return s.decision;
}

const POW2 = Float64Array.from({ length: PACK_SIZE }, (_, p) => 2 ** p);
const KEY = seedKey('invariants');

describe('viersche invariants over random deals', () => {
  it('100,000 random deals: C-3 deal, V-4/V-5 legal sets, C-5/V-1/V-2 trick winners, V-3 points, V-7..V-9 outcomes', () => {
    const DEALS = 100_000;
    const state = new VierscheState();
    const deck = new Uint8Array(PACK_SIZE);
    const legal = newSets();
    const rng = new Rng();
    const holder = new Int8Array(PACK_SIZE); // seat holding each card now, -1 once played
    const cards = new Int8Array(4 * 9); // each seat's cards, the first held[seat] of its 9 slots
    const held = new Int8Array(4);
    const bySuit = new Int8Array(4 * 5); // cards held by seat and effective suit
    const trickCards = new Int8Array(4);
    const played = new Int32Array(4);
    const pts = [0, 0];
    const tricksWon = [0, 0];
    const reach = [-1, -1];
    const failures: string[] = [];
    const counts = { claims: 0, claimed: 0, facedown: 0, undecided: 0, twoRungs: 0, second: 0 };
    const fail = (i: number, what: string) => {
      if (failures.length < 30) failures.push(`deal ${i}: ${what}`);
    };

    for (let i = 0; i < DEALS; i++) {
      rng.reseed(KEY, i);
      const second = i % 5 >= 3;
      const ctx: DealContext = { dealer: i & 3, targets: [100, 100], secondDeal: second };
      if (second) {
        const x = 70 + rng.below(30);
        const lead = rng.below(2);
        ctx.targets = lead === 0 ? [100 - x, x - 40] : [x - 40, 100 - x];
        counts.second++;
      }
      state.deal(ctx, rng, deck);
      const trump = state.trump;
      const T = trump * 36;

      // C-3, C-4: hands disjoint, 9 each, covering the pack; the dealer holds the turn-up.
      holder.fill(-1);
      bySuit.fill(0);
      held.fill(0);
      for (let seat = 0; seat < 4; seat++) {
        let n = 0;
        for (let l = 0; l < LANES; l++) {
          for (let m = state.dealt[seat * LANES + l]; m !== 0; m &= m - 1) {
            const p = PHYS[trump * 128 + ((l << 5) | (31 - Math.clz32(m & -m)))];
            if (p < 0 || holder[p] >= 0 || held[seat] >= 9) {
              fail(i, `card ${p} dealt twice or unknown, or too many cards`);
              continue;
            }
            holder[p] = seat;
            cards[seat * 9 + held[seat]++] = p;
            bySuit[seat * 5 + EFF[T + p]]++;
            n++;
          }
        }
        if (n !== 9) fail(i, `seat ${seat} dealt ${n} cards`);
      }
      const turnupP = PHYS[trump * 128 + state.turnup];
      if (holder.includes(-1)) fail(i, 'the pack is not covered');
      if (holder[turnupP] !== state.dealer || ((turnupP / 9) | 0) !== trump) fail(i, "turn-up not the dealer's trump");

      played.fill(0);
      pts[0] = pts[1] = 0;
      tricksWon[0] = tricksWon[1] = 0;
      reach[0] = reach[1] = -1;
      let pos = 0;
      let trick = 0;
      let leader = (state.dealer + 1) & 3;
      let facedown = false;
      let claimedBy = -1;
      let lastWinner = -1;

      while (!state.isTerminal()) {
        const seat = state.toMove;
        if (state.decision === Decision.Claim) {
          // V-8 as modelled: asked only of the trick's winner, only when correct, only before the 9th trick.
          const team = seat & 1;
          if (seat !== lastWinner || pts[team] < state.targets[team] || trick >= 9)
            fail(i, `claim question to ${seat} after trick ${trick - 1}`);
          counts.claims++;
          const yes = rng.below(3) === 0;
          if (yes) claimedBy = seat;
          state.apply(yes ? YES : NO);
          continue;
        }
        if (state.decision !== Decision.Card || seat !== (leader + pos) % 4) {
          fail(i, `unexpected decision ${state.decision} for ${seat}`);
          break;
        }
        // V-4, V-5: the legal set, derived from the physical hand.
        const led = pos === 0 ? -1 : facedown && trick === 0 ? TRUMP_SUIT : EFF[T + trickCards[0]];
        const hasTrump = bySuit[seat * 5 + TRUMP_SUIT] > 0;
        const hasLed = led >= 0 && bySuit[seat * 5 + led] > 0;
        let want = 0;
        for (let k = 0; k < held[seat]; k++) {
          const p = cards[seat * 9 + k];
          const e = EFF[T + p];
          const ok =
            pos === 0 ? !(trick === 0 && hasTrump) || e === TRUMP_SUIT : !hasLed || e === led || e === TRUMP_SUIT;
          if (ok) want += POW2[p];
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
        const move = setSelect(legal, 0, rng.below(n));
        const p = PHYS[trump * 128 + move];
        if (holder[p] !== seat) fail(i, `seat ${seat} played ${cardName(p)} it does not hold`);
        holder[p] = -1;
        for (let k = 0; k < held[seat]; k++) {
          if (cards[seat * 9 + k] === p) {
            cards[seat * 9 + k] = cards[seat * 9 + --held[seat]];
            break;
          }
        }
        bySuit[seat * 5 + EFF[T + p]]--;
        played[seat]++;
        if (pos === 0 && trick === 0 && EFF[T + p] !== TRUMP_SUIT) facedown = true;
        trickCards[pos++] = p;
        state.apply(move);
        if (pos < 4) continue;

        // C-5, V-1, V-2, V-4: the trick's winner, recomputed; V-3 its points.
        const ledSuit = facedown && trick === 0 ? TRUMP_SUIT : EFF[T + trickCards[0]];
        let best = -1;
        let bestPower = -1;
        let value = 0;
        for (let j = 0; j < 4; j++) {
          const c = trickCards[j];
          value += PTS[T + c];
          if (j === 0 && facedown && trick === 0) continue; // the face-down card cannot win
          const e = EFF[T + c];
          const power = e === TRUMP_SUIT ? POWER[T + c] : e === ledSuit ? POWER[T + c] : -1;
          if (power > bestPower) {
            bestPower = power;
            best = j;
          }
        }
        const w = (leader + best) % 4;
        if (state.trickWinner[trick] !== w || state.trickValue[trick] !== value) {
          fail(i, `trick ${trick}: engine ${state.trickWinner[trick]}/${state.trickValue[trick]}, rules ${w}/${value}`);
        }
        const team = w & 1;
        pts[team] += value;
        tricksWon[team]++;
        if (reach[team] < 0 && pts[team] >= state.targets[team]) reach[team] = trick;
        trick++;
        pos = 0;
        leader = w;
        lastWinner = w;
        const asked = trick < 9 && pts[team] >= state.targets[team];
        const next = decisionOf(state); // (read through a function: `apply` changed it)
        if (trick < 9 && ((next === Decision.Claim) !== asked || state.toMove !== w)) {
          fail(i, `after trick ${trick - 1}: decision ${next} to ${state.toMove}, claim due ${asked}`);
        }
      }

      // Outcome (V-7, V-8, V-9).
      if (state.facedown !== facedown) fail(i, 'face-down flag');
      if (facedown) counts.facedown++;
      let winner = -1;
      let rungs = 0;
      if (claimedBy >= 0) {
        counts.claimed++;
        winner = claimedBy & 1;
        rungs = 1;
        if (state.claimTrick !== trick - 1 || state.trick !== trick) fail(i, 'claim trick');
        if (played.some((c) => c !== trick)) fail(i, `cards played after a claim: ${played}`);
      } else {
        if (played.some((c) => c !== 9)) fail(i, `cards played ${played}`);
        if (pts[0] + pts[1] !== 140) fail(i, `points ${pts}`);
        if (reach[0] >= 0 && (reach[1] < 0 || reach[0] < reach[1])) winner = 0;
        else if (reach[1] >= 0) winner = 1;
        if (winner >= 0) rungs = tricksWon[winner] === 9 ? 2 : 1;
        if (!second && reach[0] >= 0 && reach[1] >= 0) fail(i, 'both teams reached 100 in a first deal');
        if (second && winner < 0) fail(i, 'undecided second deal');
      }
      if (winner < 0) counts.undecided++;
      if (rungs === 2) counts.twoRungs++;
      if (state.winner !== winner || state.gameRungs !== rungs)
        fail(i, `outcome engine ${state.winner}/${state.gameRungs}, rules ${winner}/${rungs}`);
      if (state.teamPoints(0) !== pts[0] || state.teamPoints(1) !== pts[1])
        fail(i, `team points ${state.teamPoints(0)},${state.teamPoints(1)} vs ${pts}`);
      if (state.teamTricks(0) !== tricksWon[0] || state.teamTricks(1) !== tricksWon[1]) fail(i, 'team tricks');
    }

    expect(failures).toEqual([]);
    // The random deals reach every case the checks are about.
    expect(counts.claims).toBeGreaterThan(DEALS / 2);
    expect(counts.claimed).toBeGreaterThan(DEALS / 10);
    expect(counts.facedown).toBeGreaterThan(DEALS / 50);
    expect(counts.undecided).toBeGreaterThan(DEALS / 20);
    expect(counts.twoRungs).toBeGreaterThan(0);
  });
});

// --- Whole matches ---

interface Score {
  rungs: [number, number];
  carry: { team: number; points: number } | null;
  frame: [number, number];
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

describe('viersche matches (V-7, V-9, V-10, RECORD.md)', () => {
  it('300 random matches: ladder, carry, sets, frame marks, match end and deal records', () => {
    const failures: string[] = [];
    const fail = (mi: number, d: number, what: string) => {
      if (failures.length < 30) failures.push(`match ${mi} deal ${d}: ${what}`);
    };
    const state = new VierscheState();
    const rng = new Rng();
    const legal = newSets();
    const dealMetrics = new Float64Array(12);
    let deals = 0;
    let sets = 0;
    let carries = 0;
    for (let mi = 0; mi < 300; mi++) {
      const match = new VierscheMatch(false, mi);
      match.recording = true;
      // The model: V-7 carry, V-9 rungs, V-10 frame.
      const model: Score = { rungs: [4, 4], carry: null, frame: [0, 0] };
      let prevAfter: string | null = JSON.stringify(model);
      for (let d = 0; !match.over; d++) {
        if (d > 200) {
          fail(mi, d, 'match does not end');
          break;
        }
        rng.reseed(KEY, mi, d + 1);
        match.startDeal(state, rng);
        deals++;
        // V-7: targets from the written score.
        const c = model.carry;
        const targets = c
          ? c.team === 0
            ? [100 - c.points, c.points - 40]
            : [c.points - 40, 100 - c.points]
          : [100, 100];
        if (state.targets[0] !== targets[0] || state.targets[1] !== targets[1] || state.secondDeal !== (c !== null)) {
          fail(mi, d, `targets ${state.targets} second ${state.secondDeal}, want ${targets}`);
        }
        if (state.dealer !== (mi + d) % 4) fail(mi, d, `dealer ${state.dealer}`);
        while (!state.isTerminal()) state.apply(setSelect(legal, 0, rng.below(state.legal(legal, 0))));
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

        // The model's view of the deal's scoring.
        const events: unknown[] = [];
        const w = state.winner;
        if (w < 0) {
          if (c) fail(mi, d, 'a second deal left undecided');
          const team = state.teamPoints(1) > state.teamPoints(0) ? 1 : 0;
          model.carry = { team, points: state.teamPoints(team) };
          if (model.carry.points < 70 || model.carry.points > 99) fail(mi, d, `carry ${model.carry.points}`);
          events.push({ type: 'carry', team, points: model.carry.points });
          carries++;
        } else {
          model.carry = null;
          const erased = Math.min(state.gameRungs, model.rungs[w]);
          model.rungs[w] -= erased;
          events.push({ type: 'game', team: w, rungs: erased });
          if (model.rungs[w] === 0) {
            const loser = 1 - w;
            const marks = model.rungs[loser] === 4 ? 2 : 1;
            model.frame[loser] += marks;
            model.rungs = [4, 4];
            events.push({ type: 'set', loser, marks });
            sets++;
            if (model.frame[loser] >= 4) events.push({ type: 'match', loser });
          }
        }
        if (JSON.stringify(rec.events) !== JSON.stringify(events))
          fail(mi, d, `events ${JSON.stringify(rec.events)} != ${JSON.stringify(events)}`);
        if (JSON.stringify(rec.after) !== JSON.stringify(model))
          fail(mi, d, `after ${JSON.stringify(rec.after)} != ${JSON.stringify(model)}`);
        // The deal's metrics: team points, game won, rungs erased (+ winners, - losers).
        match.dealMetrics(state, dealMetrics);
        const erasedNow = w < 0 ? 0 : (events[0] as { rungs: number }).rungs;
        for (let seat = 0; seat < 4; seat++) {
          const team = seat & 1;
          const want = [state.teamPoints(team), w === team ? 1 : 0, w < 0 ? 0 : w === team ? erasedNow : -erasedNow];
          if (want.some((v, k) => dealMetrics[seat * 3 + k] !== v)) fail(mi, d, `deal metrics of seat ${seat}`);
        }
        const after = rec.after as Score;
        if (after.rungs.some((r) => r < 1 || r > 4)) fail(mi, d, `rungs ${after.rungs}`); // 0 is reset at once
        // V-10: the match ends exactly when a team reaches 4 frame marks.
        if (match.over !== (model.frame[0] >= 4 || model.frame[1] >= 4))
          fail(mi, d, `over ${match.over} at frame ${model.frame}`);
        if (match.dealIndex !== d + 1) fail(mi, d, `dealIndex ${match.dealIndex}`);
      }
      const metrics = new Float64Array(12);
      match.matchMetrics(metrics);
      const loser = model.frame[0] >= 4 ? 0 : 1;
      for (let seat = 0; seat < 4; seat++) {
        if (metrics[seat * 3] !== ((seat & 1) === loser ? 0 : 1)) fail(mi, -1, `match metric won at seat ${seat}`);
        if (metrics[seat * 3 + 2] !== model.frame[seat & 1]) fail(mi, -1, `match metric marks at seat ${seat}`);
      }
    }
    expect(failures).toEqual([]);
    expect(deals).toBeGreaterThan(3000);
    expect(sets).toBeGreaterThan(900);
    expect(carries).toBeGreaterThan(300);
  });
});

/** RECORD.md's Viersche deal record, checked against the state it describes. */
function checkDealRecord(rec: VierscheRecord, s: VierscheState, fail: (what: string) => void): void {
  const hands = rec.hands;
  if (hands.length !== 4 || hands.some((h) => h.length !== 9) || new Set(hands.flat()).size !== 36) fail('hands');
  const name = (code: number) => cardName(toPhysical(s.trump, code));
  if (rec.turnup !== name(s.turnup) || !hands[s.dealer].includes(name(s.turnup))) fail('turnup');
  if (rec.trump !== SUITS[s.trump] || rec.trump !== String(rec.turnup).slice(-1)) fail('trump');
  if (rec.dealer !== s.dealer || rec.kind !== 'normal') fail('dealer/kind');
  if (JSON.stringify(rec.players) !== JSON.stringify([1, 2, 3, 4].map((k) => (s.dealer + k) % 4))) fail('players');
  const tricks = rec.tricks;
  if (tricks.length !== s.trick) fail(`${tricks.length} tricks listed, ${s.trick} played`);
  const points = [0, 0, 0, 0];
  tricks.forEach((t, k) => {
    if (t.leader !== (k === 0 ? s.forehand : tricks[k - 1].winner)) fail(`trick ${k} leader`);
    if (t.taker !== t.winner || t.winner !== s.trickWinner[k] || t.points !== s.trickValue[k])
      fail(`trick ${k} winner/points`);
    t.cards.forEach((c, j) => {
      if (!hands[(t.leader + j) % 4].includes(c)) fail(`trick ${k} card ${c} not from seat ${(t.leader + j) % 4}`);
    });
    if ((k === 0 && s.facedown) !== (t.facedown === true)) fail(`trick ${k} facedown flag`);
    points[t.winner] += t.points;
  });
  if (JSON.stringify(rec.points) !== JSON.stringify(points)) fail(`points ${JSON.stringify(rec.points)} != ${points}`);
  if (s.claimTrick < 0 && points.reduce((a, b) => a + b, 0) !== 140) fail('140');
  const claims = rec.claims;
  const want =
    s.claimTrick >= 0 ? [{ trick: s.claimTrick, seat: tricks[s.claimTrick].winner, correct: true }] : undefined;
  if (JSON.stringify(claims ?? []) !== JSON.stringify(want ?? [])) fail(`claims ${JSON.stringify(claims)}`);
}
