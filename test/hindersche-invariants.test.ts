/**
 * Random-play invariants over whole rubbers (OpenSpiel style). Random bots play many
 * rubbers; every deal's record is checked against the naive rubber model of
 * src/games/hindersche/reference.ts (dealer, players, playoffs, events, ties, the scoring
 * state after) and against invariants that hold whatever the rules' details: the
 * deal and the stack (C-3, C-4, H-7), points totals, marks never negative, drop-outs,
 * exactly one loser per game, the rubber's settlement. The hot loop collects
 * failures without `expect` and asserts once.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setSize, setToCodes } from '../src/core/cardset.js';
import { cardName, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision } from '../src/games/game.js';
import { POINTS, toPhysical } from '../src/games/hindersche/cards.js';
import { HinderscheMatch, settlement } from '../src/games/hindersche/match.js';
import { HinderscheState } from '../src/games/hindersche/state.js';
import { NaiveRubber, type NaiveTie } from '../src/games/hindersche/reference.js';

const KEY = seedKey('hindersche-invariants');

/** RECORD.md's form of a naive tie: `places` only when above 1. */
const tieRecord = (t: NaiveTie) =>
  t.places > 1 ? { for: t.for, tied: t.tied, places: t.places } : { for: t.for, tied: t.tied };

describe('hindersche rubbers under random play', () => {
  it('600 random rubbers (schleipfen off and on): records = the naive rubber model, and the invariants hold', () => {
    const RUBBERS = 600;
    const failures: string[] = [];
    const state = new HinderscheState();
    const legal = newSets();
    const rng = new Rng();
    const counts = {
      deals: 0,
      playoffs: 0,
      replays: 0,
      doubleLoss: 0,
      games: 0,
      marches1: 0,
      marches2: 0,
      tricksMarch: 0,
      all35: 0,
      excess: 0,
      multiPlace: 0,
      twoPlayer: 0,
      threePlayer: 0,
      fourInPhase2: 0,
      schleipfen: 0,
      offers: 0,
    };
    for (let r = 0; r < RUBBERS; r++) {
      const schleipfen = r % 2 === 1;
      const games = 1 + (r % 4);
      const tariff = r % 3 === 0 ? 5 : 0.5;
      const m = new HinderscheMatch({ schleipfen, games, tariff }, false, r);
      m.recording = true;
      const model = new NaiveRubber(r % 4, games, tariff);
      let prevAfter = JSON.stringify(model.snapshot());
      let gamesSeen = 0;
      const fail = (d: number, what: string) => {
        if (failures.length < 30) failures.push(`rubber ${r} deal ${d}: ${what}`);
      };
      for (let d = 0; !m.over; d++) {
        if (d > 2000) {
          fail(d, 'the rubber does not end');
          break;
        }
        rng.reseed(KEY, r, d);
        const next = model.next();
        m.startDeal(state, rng);
        counts.deals++;
        const n = state.players;
        const order = Array.from(state.order.subarray(0, n));
        if (state.dealer !== next.dealer || order.join() !== next.players.join()) {
          fail(d, `dealer/players ${state.dealer}/${order} != model ${next.dealer}/${next.players}`);
          break;
        }
        if (n === 2) counts.twoPlayer++;
        if (n === 3) counts.threePlayer++;
        if (n === 4 && state.phase === 2) counts.fourInPhase2++;

        // C-3, C-4, H-7: the deal and the stack.
        let dealtCards = 0;
        for (let q = 0; q < 4; q++) {
          const size = setSize(state.dealt, q * LANES);
          if (size !== (state.plays(q) ? 9 : 0)) fail(d, `seat ${q} dealt ${size}`);
          dealtCards += size;
          for (let l = 0; l < LANES; l++)
            if (state.dealt[q * LANES + l] & state.stack[l]) fail(d, 'a card both dealt and out of play');
        }
        if (dealtCards + setSize(state.stack, 0) !== 36 || setSize(state.stack, 0) !== 36 - 9 * n)
          fail(d, 'pack not covered');
        const turnupOut = setHas(state.stack, 0, state.turnup);
        if (turnupOut !== n < 4 || setHas(state.dealt, state.dealer * LANES, state.turnup) !== (n === 4))
          fail(d, 'turn-up placement');

        // Random play; offers and objections are rare (YES one time in eight).
        while (!state.isTerminal()) {
          const k = state.legal(legal, 0);
          const yesNo = state.decision === Decision.Schleipfe || state.decision === Decision.Object;
          if (state.decision === Decision.Schleipfe) counts.offers++;
          state.apply(setSelect(legal, 0, yesNo ? (rng.below(8) === 0 ? 1 : 0) : rng.below(k)));
        }
        for (let p = 0; p < state.plies; p++)
          if (n < 4 && state.move(p) === state.turnup) fail(d, 'the turned card out of play was played');
        let stackPoints = 0;
        for (const c of setToCodes(state.stack, 0)) stackPoints += POINTS[c];
        let total = 0;
        let kept = 0;
        for (let q = 0; q < 4; q++) {
          total += state.seatPoints[q];
          kept += state.tricksKept[q];
        }
        if (total !== 140 - stackPoints || kept !== 9)
          fail(d, `points ${total} + out of play ${stackPoints}, tricks ${kept}`);
        if (n === 4 && total !== 140) fail(d, 'four players: 140');

        m.finishDeal(state);
        const rec = m.record(state);
        const points = [0, 1, 2, 3].map((q) => state.seatPoints[q]);
        const kept4 = [0, 1, 2, 3].map((q) => state.tricksKept[q]);
        const want = model.finish(next, points, kept4);

        // The record against the model.
        if (JSON.stringify(rec.before) !== prevAfter)
          fail(d, `before ${JSON.stringify(rec.before)} != previous after ${prevAfter}`);
        prevAfter = JSON.stringify(rec.after);
        if (JSON.stringify(rec.events) !== JSON.stringify(want.events))
          fail(d, `events ${JSON.stringify(rec.events)} != ${JSON.stringify(want.events)}`);
        if (JSON.stringify(rec.after) !== JSON.stringify(model.snapshot()))
          fail(d, `after ${JSON.stringify(rec.after)} != ${JSON.stringify(model.snapshot())}`);
        if (JSON.stringify(rec.ties ?? []) !== JSON.stringify(want.ties.map(tieRecord)))
          fail(d, `ties ${JSON.stringify(rec.ties)} != ${JSON.stringify(want.ties)}`);
        if (next.playoff) {
          counts.playoffs++;
          if (rec.kind !== 'playoff' || JSON.stringify(rec.playoff) !== JSON.stringify(tieRecord(next.playoff)))
            fail(d, `playoff ${JSON.stringify(rec.playoff)}`);
          if (want.ties.length > 0) counts.replays++;
        } else if (rec.kind !== 'normal' || rec.playoff !== undefined) fail(d, 'kind');
        if (want.ties.some((t) => t.places > 1)) counts.multiPlace++;

        // The record against the state it describes.
        const names = rec.hands.flat();
        if (new Set([...names, ...rec.outOfPlay]).size !== 36 || names.length !== 9 * n)
          fail(d, 'record hands/outOfPlay');
        if (rec.turnup !== cardName(toPhysical(state.trump, state.turnup)) || rec.trump !== SUITS[state.trump])
          fail(d, 'record turn-up');
        if (rec.outOfPlay.includes(rec.turnup ?? '') !== n < 4)
          fail(d, 'record: turn-up out of play only with fewer than four');
        const byTaker = [0, 0, 0, 0];
        rec.tricks.forEach((t, k) => {
          if (t.leader !== (k === 0 ? rec.players[0] : rec.tricks[k - 1].taker)) fail(d, `trick ${k} leader`);
          if (t.cards.length !== n) fail(d, `trick ${k} has ${t.cards.length} cards`);
          t.cards.forEach((c, j) => {
            if (!rec.hands[rec.players[(rec.players.indexOf(t.leader) + j) % n]].includes(c))
              fail(d, `trick ${k}: ${c} not from its seat`);
          });
          byTaker[t.taker] += t.points;
        });
        if (JSON.stringify(rec.points) !== JSON.stringify(byTaker.map((p, q) => (rec.players.includes(q) ? p : null))))
          fail(d, 'record points');
        for (const x of rec.schleipfen ?? []) {
          counts.schleipfen++;
          const t = rec.tricks[x.trick];
          if (t.taker !== (x.objected === null ? x.by : t.winner) || x.by === t.winner)
            fail(d, `schleipfe ${JSON.stringify(x)}`);
        }
        if (!schleipfen && (rec.schleipfen || rec.tricks.some((t) => t.taker !== t.winner)))
          fail(d, 'schleipfen while off');

        // Invariants whatever the details.
        const a = rec.after;
        if (a.slate.some((x) => x < 0)) fail(d, `negative marks ${a.slate}`);
        if (a.phase === 2) {
          const withMarks = [0, 1, 2, 3].filter((q) => a.slate[q] > 0);
          if (JSON.stringify(withMarks) !== JSON.stringify(a.in) || a.in.length < 2)
            fail(d, `in ${a.in} but marks ${a.slate}`);
        } else if (a.in.length !== 4) fail(d, 'phase 1 with a seat out');
        if (want.marcher >= 0) {
          if (state.phase === 1) counts.marches1++;
          else counts.marches2++;
          if (state.seatPoints[want.marcher] < 100) counts.tricksMarch++;
        }
        for (const e of rec.events) {
          if (e.type === 'mark' && e.why === 'all-35') counts.all35++;
          if (e.type === 'mark' && e.why === 'excess') counts.excess++;
          if (e.type === 'game') {
            gamesSeen++;
            counts.games++;
            if (e.frame === 2) counts.doubleLoss++;
            if (rec.events.filter((x) => x.type === 'game').length !== 1) fail(d, 'more than one loser');
            if (e.frame === 2 && rec.events.some((x) => x.type === 'out')) fail(d, 'out events after a double loss');
          }
        }
        if (a.frame.reduce((x, y) => x + y, 0) < gamesSeen) fail(d, 'frame marks fewer than games lost');
        if (a.game !== gamesSeen) fail(d, `game index ${a.game} after ${gamesSeen} games`);
      }
      if (gamesSeen !== games || model.over !== true) fail(-1, `rubber over after ${gamesSeen} games of ${games}`);
      const out = new Float64Array(16);
      m.matchMetrics(out);
      const balance = settlement(m.frame, tariff);
      if ([0, 1, 2, 3].some((q) => out[q * 4] !== balance[q]) || balance.reduce((x, y) => x + y, 0) !== 0)
        fail(-1, `balance ${balance}`);
    }
    expect(failures).toEqual([]);
    // The random rubbers reach the rules under test.
    console.log(JSON.stringify(counts));
    expect(counts.playoffs).toBeGreaterThan(60);
    expect(counts.doubleLoss).toBeGreaterThan(5);
    expect(counts.marches1).toBeGreaterThan(100);
    expect(counts.marches2).toBeGreaterThan(50);
    expect(counts.tricksMarch).toBeGreaterThan(10);
    expect(counts.excess).toBeGreaterThan(100);
    expect(counts.twoPlayer).toBeGreaterThan(1000);
    expect(counts.threePlayer).toBeGreaterThan(1000);
    expect(counts.fourInPhase2).toBeGreaterThan(10);
    expect(counts.schleipfen).toBeGreaterThan(1000);
  });

  it('2500 rubbers driven by tie-prone deal results: the slate, playoffs and dealers = the naive model', () => {
    // Deal results are drawn (not played) from a few values, so that ties, all-35,
    // marches by points and by tricks, multi-place playoffs and replays are frequent.
    const VALUES = [0, 10, 20, 35, 35, 35, 50, 100];
    const TEMPLATES = [
      [35, 35, 35, 35],
      [40, 40, 30, 30],
      [50, 30, 30, 30],
      [45, 45, 45, 5],
      [100, 20, 20, 0],
      [110, 10, 10, 10],
      [60, 40, 40, 0],
      [50, 50, 20, 20],
      [38, 38, 38, 26],
      [70, 70, 0, 0],
      [47, 47, 46, 0],
      [30, 30, 40, 40],
    ];
    const failures: string[] = [];
    const state = new HinderscheState();
    const rng = new Rng();
    const counts = {
      deals: 0,
      playoffs: 0,
      replays: 0,
      multiPlace: 0,
      all35: 0,
      tricksMarch: 0,
      doubleLoss: 0,
      twoTies: 0,
      games: 0,
    };
    for (let r = 0; r < 2500; r++) {
      const games = 1 + (r % 3);
      const m = new HinderscheMatch({ schleipfen: false, games, tariff: 5 }, false, r);
      m.recording = true;
      const model = new NaiveRubber(r % 4, games, 5);
      let prevAfter = JSON.stringify(model.snapshot());
      const fail = (d: number, what: string) => {
        if (failures.length < 30) failures.push(`rubber ${r} deal ${d}: ${what}`);
      };
      for (let d = 0; !m.over; d++) {
        if (d > 5000) {
          fail(d, 'the rubber does not end');
          break;
        }
        rng.reseed(KEY, 1_000_000 + r, d);
        const next = model.next();
        m.startDeal(state, rng);
        counts.deals++;
        if (
          state.dealer !== next.dealer ||
          Array.from(state.order.subarray(0, state.players)).join() !== next.players.join()
        ) {
          fail(d, `dealer/players ${state.dealer}/${state.order} != model ${next.dealer}/${next.players}`);
          break;
        }
        const points = [0, 0, 0, 0];
        const kept = [0, 0, 0, 0];
        // A possible result: four players share 140; fewer share at most 140 (the rest lies
        // out of play); at most one seat reaches 100; all nine tricks hold every point.
        const ps = next.players;
        const allTricks = rng.below(16) === 0 ? ps[rng.below(ps.length)] : -1;
        if (allTricks >= 0) {
          for (const q of ps) {
            points[q] = q === allTricks ? (ps.length === 4 ? 140 : VALUES[1 + rng.below(VALUES.length - 1)]) : 0;
            kept[q] = q === allTricks ? 9 : 0;
          }
        } else if (ps.length === 4) {
          const t = TEMPLATES[rng.below(TEMPLATES.length)];
          const shift = rng.below(4);
          ps.forEach((q, k) => {
            points[q] = t[(k + shift) % 4];
            kept[q] = 2 + (k === shift ? 1 : 0);
          });
        } else {
          do for (const q of ps) points[q] = VALUES[rng.below(VALUES.length)];
          while (ps.reduce((a, q) => a + points[q], 0) > 140);
          kept[ps[0]] = 9 - (ps.length - 1) * Math.floor(9 / ps.length);
          for (const q of ps.slice(1)) kept[q] = Math.floor(9 / ps.length);
        }
        for (let q = 0; q < 4; q++) {
          state.seatPoints[q] = points[q];
          state.tricksKept[q] = kept[q];
        }
        m.finishDeal(state);
        const rec = m.record(state);
        const want = model.finish(next, points, kept);
        if (JSON.stringify(rec.before) !== prevAfter) fail(d, 'before != previous after');
        prevAfter = JSON.stringify(rec.after);
        if (JSON.stringify(rec.events) !== JSON.stringify(want.events))
          fail(
            d,
            `events ${JSON.stringify(rec.events)} != ${JSON.stringify(want.events)} (points ${points}, kept ${kept}, before ${JSON.stringify(rec.before)})`,
          );
        if (JSON.stringify(rec.after) !== JSON.stringify(model.snapshot()))
          fail(d, `after ${JSON.stringify(rec.after)} != ${JSON.stringify(model.snapshot())}`);
        if (JSON.stringify(rec.ties ?? []) !== JSON.stringify(want.ties.map(tieRecord)))
          fail(d, `ties ${JSON.stringify(rec.ties)} != ${JSON.stringify(want.ties)}`);
        if (JSON.stringify(rec.playoff ?? null) !== JSON.stringify(next.playoff ? tieRecord(next.playoff) : null))
          fail(d, 'playoff');
        if (rec.after.slate.some((x) => x < 0)) fail(d, 'negative marks');
        if (next.playoff) counts.playoffs++;
        if (next.playoff && want.ties.length) counts.replays++;
        if (want.ties.length === 2) counts.twoTies++;
        if (want.ties.some((t) => t.places > 1)) counts.multiPlace++;
        if (want.marcher >= 0 && points[want.marcher] < 100) counts.tricksMarch++;
        for (const e of rec.events) {
          if (e.type === 'mark' && e.why === 'all-35') counts.all35++;
          if (e.type === 'game') counts.games++;
          if (e.type === 'game' && e.frame === 2) counts.doubleLoss++;
        }
      }
      if (m.game !== games) fail(-1, `ended after ${m.game} games`);
    }
    expect(failures).toEqual([]);
    console.log(JSON.stringify(counts));
    expect(counts.playoffs).toBeGreaterThan(1000);
    expect(counts.replays).toBeGreaterThan(100);
    expect(counts.multiPlace).toBeGreaterThan(5);
    expect(counts.twoTies).toBeGreaterThan(5);
    expect(counts.all35).toBeGreaterThan(50);
    expect(counts.tricksMarch).toBeGreaterThan(50);
    expect(counts.doubleLoss).toBeGreaterThan(10);
  });
});
