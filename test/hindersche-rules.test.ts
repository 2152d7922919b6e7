/**
 * Hindersche rule by rule (RULES.md C and H, RECORD.md), from fixed positions,
 * scripted play and matches driven by chosen deal results, including the worked
 * examples of the sources (../shared/sources/hindersche*.txt and RULES.md H-9).
 * Positions use hearts as trump unless said: the Alt is JH, the Kloei JD.
 */
import { describe, expect, it } from 'vitest';
import { LANES, setHas } from '../src/core/cardset.js';
import { cardName, PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES } from '../src/games/game.js';
import { POINTS, toPhysical } from '../src/games/hindersche/cards.js';
import { hindersche } from '../src/games/hindersche/index.js';
import { DEFAULT_RULES, HinderscheMatch, settlement, type HinderscheRules } from '../src/games/hindersche/match.js';
import type { HinderscheRecord } from '../src/games/hindersche/record.js';
import { Kind, Settlement, TieFor, WHY_NAMES, settle, type SlateContext } from '../src/games/hindersche/score.js';
import { HinderscheState } from '../src/games/hindersche/state.js';
import {
  context,
  drive,
  handNames,
  legalNames,
  play,
  position,
  randomPlayout,
  setNames,
} from './hindersche-helpers.js';

const KEY = seedKey('hindersche-rules');
const deck = new Uint8Array(PACK_SIZE);
const sorted = (names: string) => names.split(' ').sort();

// ---- slate helpers -------------------------------------------------------------

/** Result of `settle` in RECORD.md terms: the settled changes and the open ties. */
function outcome(
  ctx: Partial<SlateContext> & { mask: number; slate?: number[] },
  points: number[],
  kept: number[] = [0, 0, 0, 0],
) {
  const full: SlateContext = {
    phase: ctx.phase ?? 2,
    kind: ctx.kind ?? Kind.Normal,
    mask: ctx.mask,
    slate: ctx.slate ?? [0, 0, 0, 0],
    playoffFor: ctx.playoffFor ?? TieFor.None,
    playoffPlaces: ctx.playoffPlaces ?? 0,
  };
  const st = new Settlement();
  settle(full, points, kept, st);
  const marks: Record<number, string> = {};
  for (let s = 0; s < 4; s++)
    if (st.delta[s] !== 0) marks[s] = `${st.delta[s] > 0 ? '+' : ''}${st.delta[s]} ${WHY_NAMES[st.why[s]]}`;
  const ties: string[] = [];
  for (let t = 0; t < st.ties; t++) {
    const tied = [0, 1, 2, 3].filter((s) => (st.tieMask[t] >>> s) & 1);
    ties.push(`${st.tieFor[t] === TieFor.Most ? 'most' : 'fewest'} [${tied}] x${st.tiePlaces[t]}`);
  }
  return { marks, ties, marcher: st.marcher };
}

const MASK = (...seats: number[]) => seats.reduce((m, s) => m | (1 << s), 0);

/** Phase-1 points with `s` taking the most (sum 140). */
const most = (s: number): number[] => [0, 1, 2, 3].map((q) => (q === s ? 50 : 30));
/** Phase-1 points with `s` making a march (sum 140). */
const marchBy = (s: number): number[] => [0, 1, 2, 3].map((q) => (q === s ? 110 : 10));

function newMatch(
  index = 0,
  rules: HinderscheRules = DEFAULT_RULES,
): { m: HinderscheMatch; s: HinderscheState; rng: Rng } {
  const m = new HinderscheMatch(rules, false, index);
  m.recording = true;
  return { m, s: new HinderscheState(), rng: new Rng(KEY, 7, index) };
}

type Rec = HinderscheRecord;

/** A match at index 0 driven through phase 1 by the seats that take the most, in turn. */
function phase1(losers: number[]): { m: HinderscheMatch; s: HinderscheState; rng: Rng; last: Rec } {
  const x = newMatch();
  let last: Rec | null = null;
  for (const l of losers) last = drive(x.m, x.s, x.rng, most(l));
  if (!last) throw new Error('no deal');
  return { ...x, last };
}

// ---- the deal --------------------------------------------------------------------

describe('C-3, C-4, H-7: the deal', () => {
  it('C-3, C-4: four players get 9 cards each, the whole pack; the dealer holds the turn-up, which sets trump', () => {
    const s = new HinderscheState();
    for (let i = 0; i < 100; i++) {
      const dealer = i % 4;
      s.deal(context({ dealer }), new Rng(KEY, i), deck);
      const hands = [0, 1, 2, 3].map((seat) => handNames(s, seat, s.dealt));
      expect(hands.map((h) => h.length)).toEqual([9, 9, 9, 9]);
      expect(new Set(hands.flat()).size).toBe(36);
      const turnup = cardName(toPhysical(s.trump, s.turnup));
      expect(hands[dealer]).toContain(turnup);
      expect(SUITS[s.trump]).toBe(turnup.slice(-1));
      expect(s.turnupHolder).toBe(dealer);
      expect(s.stackSize).toBe(0);
      expect(s.forehand).toBe((dealer + 1) % 4); // C-2
      expect(s.toMove).toBe(s.forehand); // C-5
    }
  });

  for (const [what, mask, dealer] of [
    ['three players (seat 2 out)', MASK(0, 1, 3), 3],
    ['two players (seats 1 and 3)', MASK(1, 3), 1],
  ] as const) {
    it(`H-7, C-4: ${what}: 9 cards each, the rest out of play with the turned card on top, belonging to nobody`, () => {
      const s = new HinderscheState();
      const n = [0, 1, 2, 3].filter((q) => (mask >>> q) & 1).length;
      for (let i = 0; i < 100; i++) {
        s.deal(context({ dealer, mask, phase: 2, slate: [1, 1, 1, 1] }), new Rng(KEY, 100 + i), deck);
        const hands = [0, 1, 2, 3].map((seat) => handNames(s, seat, s.dealt));
        const stack = setNames(s, s.stack, 0);
        expect(hands.map((h) => h.length)).toEqual([0, 1, 2, 3].map((q) => ((mask >>> q) & 1 ? 9 : 0)));
        expect(stack.length).toBe(36 - 9 * n);
        expect(new Set([...hands.flat(), ...stack]).size).toBe(36);
        const turnup = cardName(toPhysical(s.trump, s.turnup));
        expect(stack).toContain(turnup);
        expect(hands.flat()).not.toContain(turnup);
        expect(SUITS[s.trump]).toBe(turnup.slice(-1));
        expect([s.turnupHolder, s.turnupHeld]).toEqual([-1, false]);
        expect(s.forehand).toBe([1, 2, 3, 4].map((k) => (dealer + k) % 4).find((q) => (mask >>> q) & 1));
        // Only players act, each in turn after the previous one still in.
        const rng = new Rng(KEY, 200 + i);
        while (!s.isTerminal()) {
          expect((mask >>> s.toMove) & 1).toBe(1);
          randomMove(s, rng);
        }
        expect(s.trickLeader.slice(0, 9).every((q) => (mask >>> q) & 1)).toBe(true);
        // Points: what the dealt cards hold (140 less the stack's).
        const stackPoints = stack.reduce((p, c) => p + POINTS[codeOf(s, c)], 0);
        expect(s.seatPoints.reduce((a, b) => a + b, 0)).toBe(140 - stackPoints);
      }
    });
  }

  it('C-3: the same (seed, deal index) gives the same deal; another index gives another', () => {
    const dealt = (i: number, mask: number) => {
      const s = new HinderscheState();
      s.deal(context({ dealer: 1, mask }), new Rng(KEY, i), deck);
      return Array.from(s.dealt).join() + '/' + Array.from(s.stack).join() + '/' + s.turnup;
    };
    expect(dealt(7, 15)).toBe(dealt(7, 15));
    expect(dealt(7, 15)).not.toBe(dealt(8, 15));
    expect(dealt(7, MASK(1, 2))).toBe(dealt(7, MASK(1, 2)));
  });
});

function codeOf(s: HinderscheState, name: string): number {
  for (let c = 0; c < 128; c++) if (toPhysical(s.trump, c) >= 0 && cardName(toPhysical(s.trump, c)) === name) return c;
  throw new Error(name);
}

function randomMove(s: HinderscheState, rng: Rng): void {
  const buf = new Int32Array(4);
  const n = s.legal(buf, 0);
  let k = rng.below(n);
  for (let l = 0; l < 4; l++) {
    for (let m = buf[l]; m !== 0; m &= m - 1) {
      if (k-- === 0) {
        s.apply((l << 5) | (31 - Math.clz32(m & -m)));
        return;
      }
    }
  }
}

// ---- card play -----------------------------------------------------------------

// Trump H (dealer 0 holds the turn-up 6H). Seat 1 is forehand.
const HANDS = [
  '6H 7C 8C 9S 10S QD 8D 7S 6S',
  'JH AH 9C KC 8S QS KD 6D 7D',
  'JD 10H QH 6C AC 10C JS AS 9D',
  'KH 9H 8H 7H JC QC KS 10D AD',
];

describe('H-1: card play as in Viersche, with a free lead and undertrumping', () => {
  it('H-1: forehand may lead any card, trumps in hand or not (no V-4 trump-lead duty, no face-down lead)', () => {
    const s = position('H', HANDS);
    expect(s.toMove).toBe(1);
    expect(legalNames(s)).toEqual(sorted(HANDS[1]));
    play(s, '9C');
    expect(s.observe(2).move(0)).toBe(s.move(0)); // led face up
  });

  it('H-1 (V-5): holding the suit led, follow suit or trump; void, any card', () => {
    const s = play(position('H', HANDS), '9C');
    expect(legalNames(s)).toEqual(sorted('6C AC 10C JD 10H QH')); // seat 2: clubs or trumps
    play(s, 'AC');
    expect(legalNames(s)).toEqual(sorted('JC QC KH 9H 8H 7H')); // seat 3: JC QC or trumps
    play(s, 'QC');
    expect(legalNames(s)).toEqual(sorted('7C 8C 6H')); // seat 0
  });

  it('H-1 (V-5, V-1): trumps led, a trump if you hold one, the Kloei included', () => {
    const s = play(position('H', ['6H 8C', 'KH 9C', 'JD 6C', '8D 7C']), 'KH');
    expect(legalNames(s)).toEqual(['JD']);
    play(s, 'JD');
    expect(legalNames(s)).toEqual(sorted('7C 8D')); // no trump: anything
  });

  it('H-1: undertrumping is allowed, holding the suit led or not', () => {
    // Seat 1 leads 9C, seat 2 trumps with QH; seat 3 (holding clubs) may play a lower trump.
    const s = play(position('H', HANDS), '9C', 'QH');
    expect(legalNames(s)).toContain('7H');
    play(s, '7H', '7C');
    expect(s.trickWinner[0]).toBe(2);
    // Void in the suit led, a player may undertrump too.
    const u = play(position('H', ['6H 7D', 'AH 6S', '7S 8D', '9H 9D']), '6S', '7S', '9H');
    expect(legalNames(u)).toEqual(sorted('6H 7D'));
    play(u, '6H');
    expect(u.trickWinner[0]).toBe(3);
  });

  it('H-1 (C-5, V-1, V-2): the Alt beats the Kloei beats the trump ace; a plain ten ranks below the jack', () => {
    const t = play(position('H', ['6H 7C', 'JD 8C', 'JH 9C', 'AH 10C']), 'JD', 'JH', 'AH', '6H');
    expect(t.trickWinner[0]).toBe(2);
    const u = play(position('H', ['6C 6H', '10C 7H', 'JC 8H', '9C 9H']), '10C', 'JC', '9C', '6C');
    expect(u.trickWinner[0]).toBe(2);
    expect(u.trickValue[0]).toBe(12); // V-3: plain J 2, 10 10
  });

  it('H-1 (V-3): a four-player deal holds 140 points, all kept by the takers', () => {
    const rng = new Rng(KEY, 5);
    const s = new HinderscheState();
    for (let i = 0; i < 200; i++) {
      s.deal(context({ dealer: i & 3 }), rng, deck);
      randomPlayout(s, rng);
      expect(s.seatPoints.reduce((a, b) => a + b, 0)).toBe(140);
      expect(s.tricksKept.reduce((a, b) => a + b, 0)).toBe(9);
    }
  });

  it('H-7: a three-player trick has three cards and skips the seat that is out', () => {
    const s = position('H', ['', '9C 8S 7S', 'AC JS 8D', 'KC 6S 9D'], { dealer: 3, stack: '' });
    expect([s.forehand, s.players]).toEqual([1, 3]);
    play(s, '9C', 'AC', 'KC');
    expect([s.trick, s.trickWinner[0], s.toMove, s.trickValue[0]]).toEqual([1, 2, 2, 15]);
  });
});

// ---- schleipfen ----------------------------------------------------------------

describe('H-2: schleipfen (variant)', () => {
  it('H-2: off by default: the game lists it false, and no decision but a card is ever asked', () => {
    expect(hindersche.variants.find((v) => v.key === 'schleipfen')?.default).toBe(false);
    const m = hindersche.newMatch(
      { seats: 4, rules: { schleipfen: false, games: 4, tariff: 5 } },
      { singleDeal: false, index: 0 },
    );
    const s = hindersche.newState({ seats: 4, rules: {} });
    const rng = new Rng(KEY, 11);
    let decisions = 0;
    for (let i = 0; i < 200 && !m.over; i++) {
      m.startDeal(s, rng);
      while (!s.isTerminal()) {
        if (s.decision !== Decision.Card) decisions++;
        randomMove(s, rng);
      }
      m.finishDeal(s);
    }
    expect(decisions).toBe(0);
  });

  it('H-2: the others are asked in playing order from the winner; the first to offer stops the asking', () => {
    const s = play(position('H', HANDS, { schleipfen: true }), '9C', 'AC', 'QC', '8C'); // seat 2 wins
    expect(s.trickWinner[0]).toBe(2);
    expect([s.decision, s.toMove]).toEqual([Decision.Schleipfe, 3]);
    play(s, 'no');
    expect([s.decision, s.toMove]).toEqual([Decision.Schleipfe, 0]);
    play(s, 'yes'); // seat 0 offers; seat 1 is not asked to offer
    expect([s.decision, s.toMove, s.offerer]).toEqual([Decision.Object, 1, 0]);
  });

  it('H-2: objections are asked of everyone else, the winner included, from the offerer on; one gives the trick to its winner', () => {
    const s = play(position('H', HANDS, { schleipfen: true }), '9C', 'AC', 'QC', '8C', 'no', 'yes');
    const askedObject: number[] = [];
    askedObject.push(s.toMove);
    play(s, 'no');
    askedObject.push(s.toMove);
    play(s, 'yes'); // seat 2, the winner, objects
    expect(askedObject).toEqual([1, 2]);
    expect([s.trickTaker[0], s.trickObjector[0], s.trickOfferer[0]]).toEqual([2, 2, 0]);
    expect([s.seatPoints[2], s.seatPoints[0], s.toMove, s.decision]).toEqual([14, 0, 2, Decision.Card]);
  });

  it('H-2: unopposed, the offerer takes the trick: its points, a trick kept, the next lead; the record shows it', () => {
    const m = new HinderscheMatch({ ...DEFAULT_RULES, schleipfen: true }, true, 0);
    m.recording = true;
    const s = new HinderscheState();
    m.startDeal(s, new Rng(KEY, 12));
    // First trick: nobody offers; second: the first asked offers and nobody objects; then all pass.
    let trick = 0;
    let firstAsked = -1;
    while (!s.isTerminal()) {
      if (s.decision === Decision.Schleipfe) {
        if (trick === 1 && firstAsked < 0) firstAsked = s.toMove;
        s.apply(trick === 1 && s.toMove === firstAsked ? YES : NO);
      } else if (s.decision === Decision.Object) {
        s.apply(NO);
      } else {
        trick = s.trick;
        randomMove(s, new Rng(KEY, 13, s.plies));
      }
    }
    m.finishDeal(s);
    const r = m.record(s);
    expect(r.schleipfen).toEqual([{ trick: 1, by: firstAsked, objected: null }]);
    expect(r.tricks[1].taker).toBe(firstAsked);
    expect(r.tricks[1].winner).not.toBe(firstAsked);
    expect(r.tricks[2].leader).toBe(firstAsked);
    const byTaker = [0, 0, 0, 0];
    for (const t of r.tricks) byTaker[t.taker] += t.points;
    expect(r.points).toEqual(byTaker);
  });

  it('H-2 (Decision): the ninth trick can be taken over too; with two players the winner alone is asked to object', () => {
    const s = new HinderscheState();
    s.deal(
      context({ dealer: 3, mask: MASK(1, 3), phase: 2, slate: [0, 1, 0, 1], schleipfen: true }),
      new Rng(KEY, 14),
      deck,
    );
    const rng = new Rng(KEY, 15);
    const objectors: number[] = [];
    let offerer = -1;
    while (!s.isTerminal()) {
      if (s.decision === Decision.Schleipfe) {
        offerer = s.toMove;
        play(s, s.trick === 8 ? 'yes' : 'no');
      } else if (s.decision === Decision.Object) {
        objectors.push(s.toMove);
        play(s, 'no');
      } else randomMove(s, rng);
    }
    expect(objectors).toEqual([s.trickWinner[8]]);
    expect(s.trickTaker[8]).toBe(offerer);
    expect(s.trickTaker[8]).not.toBe(s.trickWinner[8]);
    expect(s.seatPoints[1] + s.seatPoints[3]).toBe(s.trickValue.reduce((a, b) => a + b, 0));
  });
});

// ---- phase 1 ---------------------------------------------------------------------

describe('H-4: phase 1 (Vier-Strich)', () => {
  it('H-4: the player with the most points receives 1 mark', () => {
    const { m, s, rng } = newMatch();
    const r = drive(m, s, rng, [20, 45, 40, 35]);
    expect(r.events).toEqual([{ type: 'mark', seat: 1, n: 1, why: 'most' }]);
    expect(r.after).toEqual({ game: 0, phase: 1, slate: [0, 1, 0, 0], in: [0, 1, 2, 3], frame: [0, 0, 0, 0] });
  });

  it('H-4: a march (100 points or more) gives each of the three others 1 mark', () => {
    const { m, s, rng } = newMatch();
    const r = drive(m, s, rng, [20, 100, 10, 10]);
    // Dealer 0: playing order 1 2 3 0.
    expect(r.events).toEqual([2, 3, 0].map((seat) => ({ type: 'mark', seat, n: 1, why: 'march-opponent' })));
    expect(r.after.slate).toEqual([1, 0, 1, 1]);
    expect(outcome({ phase: 1, mask: 15 }, [41, 99, 0, 0]).marks).toEqual({ 1: '+1 most' }); // 99 is no march
  });

  it('H-4: all four on 35: each receives 1 mark; with 4 marks phase 1 ends and nobody drops out', () => {
    const { m, s, rng } = newMatch();
    const r = drive(m, s, rng, [35, 35, 35, 35]);
    expect(r.events).toEqual([1, 2, 3, 0].map((seat) => ({ type: 'mark', seat, n: 1, why: 'all-35' })));
    expect(r.after).toEqual({ game: 0, phase: 2, slate: [1, 1, 1, 1], in: [0, 1, 2, 3], frame: [0, 0, 0, 0] });
  });

  it('H-4 (H-6): in phase 1 all nine tricks without 100 points are no march', () => {
    // A phase-1 playoff of two: the seat with every trick (60 points) has the most and loses.
    expect(
      outcome(
        { phase: 1, kind: Kind.Playoff, mask: MASK(0, 2), playoffFor: TieFor.Most, playoffPlaces: 1 },
        [60, 0, 10, 0],
        [9, 0, 0, 0],
      ),
    ).toEqual({
      marks: { 0: '+1 playoff' },
      ties: [],
      marcher: -1,
    });
  });

  it('H-4: phase 1 ends as soon as the slate holds 4 marks; the seats with a clean slate drop out', () => {
    const { m, s, rng } = newMatch();
    for (const l of [0, 3, 0]) drive(m, s, rng, most(l));
    const r = drive(m, s, rng, most(1));
    expect(r.events).toEqual([
      { type: 'mark', seat: 1, n: 1, why: 'most' },
      { type: 'out', seat: 2 },
    ]);
    expect(r.after).toEqual({ game: 0, phase: 2, slate: [2, 1, 0, 1], in: [0, 1, 3], frame: [0, 0, 0, 0] });
  });

  it('H-4, H-6: a deal is scored in marks, so marks are the headline deal metric; the engine writes the metrics in the order the game lists them', () => {
    expect(hindersche.dealMetrics.map((m) => m.key)).toEqual([...HinderscheMatch.dealMetricKeys]);
    expect(hindersche.dealMetrics[0]).toMatchObject({ key: 'marks', higherIsBetter: false });
    // A march (H-4): the marcher's row is 0 marks and its points, the others 1 mark each.
    const { m, s, rng } = newMatch();
    drive(m, s, rng, [100, 20, 10, 10]);
    const metrics = new Float64Array(12);
    m.dealMetrics(s, metrics);
    expect(Array.from(metrics.subarray(0, 3))).toEqual([0, 100, 1]);
    expect([1, 2, 3].map((q) => metrics[q * 3])).toEqual([1, 1, 1]);
  });

  it('H-4: a march in the last deal of phase 1 leaves excess marks (more than 4)', () => {
    const { m, s, rng } = newMatch();
    for (const l of [0, 3, 0]) drive(m, s, rng, most(l));
    const r = drive(m, s, rng, marchBy(2));
    expect(r.after).toEqual({ game: 0, phase: 2, slate: [3, 1, 0, 2], in: [0, 1, 3], frame: [0, 0, 0, 0] });
    expect(r.events.at(-1)).toEqual({ type: 'out', seat: 2 });
  });

  it('H-5: every mark on one player (he lost all four deals): he loses the game at once, 2 frame marks, no phase 2', () => {
    const { m, s, rng } = newMatch();
    for (let k = 0; k < 3; k++) drive(m, s, rng, most(2));
    const r = drive(m, s, rng, most(2));
    expect(r.events).toEqual([
      { type: 'mark', seat: 2, n: 1, why: 'most' },
      { type: 'game', loser: 2, frame: 2 },
    ]);
    expect(r.after).toEqual({ game: 1, phase: 1, slate: [0, 0, 0, 0], in: [0, 1, 2, 3], frame: [0, 0, 2, 0] });
  });
});

// ---- phase 2 ---------------------------------------------------------------------

describe('H-6: phase 2 (Butzen)', () => {
  it('H-6: excess marks are erased by the fewest points: 5 marks one player, 6 marks two, 7 marks three (at most P - 1)', () => {
    // 5 marks, three players: the fewest erases 1.
    expect(outcome({ mask: MASK(0, 1, 3), slate: [3, 1, 0, 1] }, [30, 40, 0, 20]).marks).toEqual({ 3: '-1 excess' });
    // 6 marks: the two lowest scores each erase 1; nobody adds.
    expect(outcome({ mask: MASK(0, 1, 3), slate: [3, 1, 0, 2] }, [30, 40, 0, 20]).marks).toEqual({
      0: '-1 excess',
      3: '-1 excess',
    });
    // 7 marks with four players still in: three erase.
    expect(outcome({ mask: 15, slate: [2, 2, 2, 1] }, [30, 40, 50, 20]).marks).toEqual({
      0: '-1 excess',
      1: '-1 excess',
      3: '-1 excess',
    });
    // 7 marks with three players: min(M - 4, P - 1) = 2 erase.
    expect(outcome({ mask: MASK(0, 1, 2), slate: [3, 2, 2, 0] }, [30, 40, 50, 0]).marks).toEqual({
      0: '-1 excess',
      1: '-1 excess',
    });
  });

  it('H-6: through the match: 6 marks, the two fewest erase 1 each; one erases his last mark and drops out', () => {
    const { m, s, rng } = newMatch();
    for (const l of [0, 3, 0]) drive(m, s, rng, most(l));
    drive(m, s, rng, marchBy(2)); // slate [3,1,0,2], in [0,1,3]: 6 marks
    const r = drive(m, s, rng, [30, 20, 0, 40]);
    // Dealer 0: playing order 1 3 0.
    expect(r.events).toEqual([
      { type: 'mark', seat: 1, n: -1, why: 'excess' },
      { type: 'mark', seat: 0, n: -1, why: 'excess' },
      { type: 'out', seat: 1 },
    ]);
    expect(r.after).toEqual({ game: 0, phase: 2, slate: [2, 0, 0, 2], in: [0, 3], frame: [0, 0, 0, 0] });
  });

  it('H-6: ties across the last erasing place: only those tied play off, for the places that remain', () => {
    expect(outcome({ mask: MASK(0, 1, 3), slate: [3, 1, 0, 2] }, [10, 30, 0, 30])).toEqual({
      marks: { 0: '-1 excess' },
      ties: ['fewest [1,3] x1'],
      marcher: -1,
    });
    expect(outcome({ mask: 15, slate: [2, 2, 2, 1] }, [30, 30, 30, 50])).toEqual({
      marks: { 0: '-1 excess', 1: '-1 excess', 2: '-1 excess' },
      ties: [],
      marcher: -1,
    });
    expect(outcome({ mask: 15, slate: [2, 2, 2, 1] }, [20, 30, 30, 30])).toEqual({
      marks: { 0: '-1 excess' },
      ties: ['fewest [1,2,3] x2'],
      marcher: -1,
    });
  });

  it('H-6: with 4 marks the fewest erases 1 and the most adds 1; ties at either end are played off, the erasing tie first', () => {
    expect(outcome({ mask: MASK(0, 1, 3), slate: [2, 1, 0, 1] }, [30, 20, 0, 40]).marks).toEqual({
      1: '-1 fewest',
      3: '+1 most',
    });
    expect(outcome({ mask: 15, slate: [1, 1, 1, 1] }, [20, 50, 20, 50])).toEqual({
      marks: {},
      ties: ['fewest [0,2] x1', 'most [1,3] x1'],
      marcher: -1,
    });
  });

  it('H-6: a march with 4 marks: the marcher erases 2 (all, with 1 or 2 marks, and drops out); each other player adds 1', () => {
    const { m, s, rng } = newMatch();
    for (const l of [0, 3, 0, 1]) drive(m, s, rng, most(l)); // slate [2,1,0,1], in [0,1,3]
    // Seat 1 (1 mark) marches by points.
    const r = drive(m, s, rng, [10, 100, 0, 20]);
    expect(r.events).toEqual([
      { type: 'mark', seat: 1, n: -1, why: 'march' },
      { type: 'mark', seat: 3, n: 1, why: 'march-opponent' },
      { type: 'mark', seat: 0, n: 1, why: 'march-opponent' },
      { type: 'out', seat: 1 },
    ]);
    expect(r.after.slate).toEqual([3, 0, 0, 2]);
    // With 2 marks: erases both and drops out.
    expect(outcome({ mask: MASK(0, 1, 3), slate: [2, 1, 0, 1] }, [100, 10, 0, 20]).marks).toEqual({
      0: '-2 march',
      1: '+1 march-opponent',
      3: '+1 march-opponent',
    });
  });

  it('H-6: a march with excess marks erases 2 only if M - 4 >= 2 and he has 2; nobody else changes', () => {
    expect(outcome({ mask: MASK(0, 1, 3), slate: [3, 1, 0, 2] }, [110, 0, 0, 10]).marks).toEqual({ 0: '-2 march' });
    expect(outcome({ mask: MASK(0, 1, 3), slate: [2, 1, 0, 2] }, [110, 0, 0, 10]).marks).toEqual({ 0: '-1 march' });
    expect(outcome({ mask: MASK(0, 1, 3), slate: [4, 1, 0, 1] }, [10, 110, 0, 0]).marks).toEqual({ 1: '-1 march' });
  });

  it('H-6: in Butzen all nine tricks are a march, whatever the points (real play, three players)', () => {
    // Seat 0 holds nine trumps (the 6H lies out of play as the turn-up) and leads them one by one.
    const s = position(
      'H',
      ['JH JD AH KH QH 10H 9H 8H 7H', '6C 7C 8C 9C 6S 7S 8S 9S QC', 'JC JS QS KC KS 6D 7D 8D 9D', ''],
      {
        dealer: 2,
        phase: 2,
        slate: [2, 1, 1, 0],
        stack: '10C AC 10S AS 10D QD KD AD',
      },
    );
    while (!s.isTerminal()) {
      const names = legalNames(s);
      play(s, s.toMove === 0 ? (names.find((n) => n.endsWith('H') || n === 'JD') ?? names[0]) : names[0]);
    }
    expect([s.tricksKept[0], s.seatPoints[0]]).toEqual([9, 70]);
    expect(
      outcome({ mask: s.mask, slate: [2, 1, 1, 0] }, Array.from(s.seatPoints), Array.from(s.tricksKept)).marks,
    ).toEqual({
      0: '-2 march',
      1: '+1 march-opponent',
      2: '+1 march-opponent',
    });
  });

  it('H-6: two players left: the fewer points erases 1, a marcher erases 2 (all if fewer), nobody adds; equal points change nothing', () => {
    const two = (slate: number[], points: number[], kept = [0, 0, 0, 0]) =>
      outcome({ mask: MASK(1, 3), slate }, points, kept).marks;
    expect(two([0, 2, 0, 3], [0, 40, 0, 30])).toEqual({ 3: '-1 fewest' });
    expect(two([0, 3, 0, 3], [0, 100, 0, 10])).toEqual({ 1: '-2 march' });
    expect(two([0, 1, 0, 3], [0, 100, 0, 10])).toEqual({ 1: '-1 march' });
    expect(two([0, 3, 0, 3], [0, 30, 0, 0], [0, 9, 0, 0])).toEqual({ 1: '-2 march' });
    expect(two([0, 3, 0, 3], [0, 30, 0, 30])).toEqual({});
  });

  it('H-6: the two-player stage through the match: erasing down to the loser, 1 frame mark, the slate wiped', () => {
    const { m, s, rng } = newMatch();
    for (const l of [0, 3, 0, 1]) drive(m, s, rng, most(l)); // [2,1,0,1], in 0 1 3
    let r = drive(m, s, rng, [30, 20, 0, 40]); // 1 erases (out), 3 adds
    expect(r.after).toEqual({ game: 0, phase: 2, slate: [2, 0, 0, 2], in: [0, 3], frame: [0, 0, 0, 0] });
    r = drive(m, s, rng, [0, 0, 0, 0]); // equal: nothing
    expect(r.events).toEqual([]);
    r = drive(m, s, rng, [40, 0, 0, 10]);
    expect(r.events).toEqual([{ type: 'mark', seat: 3, n: -1, why: 'fewest' }]);
    r = drive(m, s, rng, [10, 0, 0, 40]);
    expect(r.after.slate).toEqual([1, 0, 0, 1]);
    r = drive(m, s, rng, [5, 0, 0, 40]);
    expect(r.events).toEqual([
      { type: 'mark', seat: 0, n: -1, why: 'fewest' },
      { type: 'out', seat: 0 },
      { type: 'game', loser: 3, frame: 1 },
    ]);
    expect(r.after).toEqual({ game: 1, phase: 1, slate: [0, 0, 0, 0], in: [0, 1, 2, 3], frame: [0, 0, 0, 1] });
    expect(m.over).toBe(false);
  });

  it('H-6: all players still in on equal points: nothing changes', () => {
    expect(outcome({ mask: MASK(0, 1, 3), slate: [2, 1, 0, 1] }, [20, 20, 0, 20])).toEqual({
      marks: {},
      ties: [],
      marcher: -1,
    });
    expect(outcome({ mask: MASK(0, 1, 3), slate: [3, 1, 0, 2] }, [20, 20, 0, 20])).toEqual({
      marks: {},
      ties: [],
      marcher: -1,
    });
  });

  it('H-6 (Decision): with fewer than 4 marks and three players, the most adds 1; a marcher erases 2 and nobody adds', () => {
    expect(outcome({ mask: MASK(0, 1, 2), slate: [1, 1, 1, 0] }, [10, 30, 20, 0]).marks).toEqual({ 1: '+1 most' });
    expect(outcome({ mask: MASK(0, 1, 2), slate: [1, 1, 1, 0] }, [100, 10, 0, 0]).marks).toEqual({ 0: '-1 march' });
  });
});

// ---- dealing and playoffs ------------------------------------------------------

describe('H-7, H-8: dealing with players out, and playoffs', () => {
  it('H-7: the deal passes to the next seat still in; the rotation continues from whoever dealt', () => {
    const { m, s, rng } = newMatch(1); // first dealer 1
    const dealers: number[] = [];
    for (const l of [2, 2, 1, 1]) dealers.push(drive(m, s, rng, most(l)).dealer);
    expect(dealers).toEqual([1, 2, 3, 0]);
    // Now in: 1 and 2 (slate [0,2,2,0]); the seat due is 1, then 2, then 3 (out) -> 1.
    const more: number[] = [];
    const players: (readonly number[])[] = [];
    for (let k = 0; k < 3; k++) {
      const r = drive(m, s, rng, [0, 0, 0, 0]);
      more.push(r.dealer);
      players.push(r.players);
    }
    expect(more).toEqual([1, 2, 1]);
    expect(players).toEqual([
      [2, 1],
      [1, 2],
      [2, 1],
    ]);
  });

  it('H-8, source example: three players, four marks, A and B tie for the fewest: C adds a mark and sits out, A and B play off', () => {
    const { m, s, rng } = phase1([0, 3, 0, 1]); // slate [2,1,0,1], in 0 1 3; last dealer 3
    const r = drive(m, s, rng, [20, 20, 0, 50]);
    expect(r.events).toEqual([{ type: 'mark', seat: 3, n: 1, why: 'most' }]);
    expect(r.ties).toEqual([{ for: 'fewest', tied: [0, 1] }]);
    expect(r.after.slate).toEqual([2, 1, 0, 2]); // only what was settled
    // The playoff: the seat due to deal is 1 (after dealer 0); 1 deals, 0 leads; C (3) sits out.
    const p = drive(m, s, rng, [30, 10, 0, 0]);
    expect([p.kind, p.playoff, p.dealer, p.players]).toEqual(['playoff', { for: 'fewest', tied: [0, 1] }, 1, [0, 1]]);
    expect((p.hands as string[][])[3]).toEqual([]);
    expect(p.points).toEqual([30, 10, null, null]);
    expect(p.events).toEqual([
      { type: 'mark', seat: 1, n: -1, why: 'playoff' },
      { type: 'out', seat: 1 },
    ]);
    expect(p.after).toEqual({ game: 0, phase: 2, slate: [2, 0, 0, 2], in: [0, 3], frame: [0, 0, 0, 0] });
    // The rotation resumes as if the playoff had not been: seat 1 is due but out, and so is 2: seat 3 deals.
    const n = drive(m, s, rng, [0, 0, 0, 0]);
    expect([n.kind, n.dealer]).toEqual(['normal', 3]);
  });

  it('H-8: a tie for the most in phase 1 is played off; the loser receives the mark; a tied playoff is played again, dealt the same way', () => {
    const { m, s, rng } = newMatch(2); // first dealer 2
    const r = drive(m, s, rng, [45, 20, 45, 30]);
    expect(r.ties).toEqual([{ for: 'most', tied: [0, 2] }]);
    expect(r.events).toEqual([]);
    const p1 = drive(m, s, rng, [20, 0, 20, 0]);
    // Due to deal: 3; the first tied seat from 3 is 0, who deals; 2 leads.
    expect([p1.kind, p1.dealer, p1.players, p1.ties]).toEqual(['playoff', 0, [2, 0], [{ for: 'most', tied: [0, 2] }]]);
    const p2 = drive(m, s, rng, [25, 0, 10, 0]);
    expect([p2.dealer, p2.players, p2.events]).toEqual([0, [2, 0], [{ type: 'mark', seat: 0, n: 1, why: 'playoff' }]]);
    expect(p2.ties).toBeUndefined();
    const n = drive(m, s, rng, most(1));
    expect([n.kind, n.dealer]).toEqual(['normal', 3]); // 2 dealt the last normal deal
    expect(m.dealIndex).toBe(4); // playoffs take their own deal indices
  });

  it('H-8: three tie for the most: all three play off; a march wins the playoff and the most of the others loses', () => {
    const { m, s, rng } = newMatch();
    const r = drive(m, s, rng, [40, 40, 40, 20]);
    expect(r.ties).toEqual([{ for: 'most', tied: [0, 1, 2] }]);
    const p = drive(m, s, rng, [100, 10, 5, 0]);
    expect([p.dealer, p.players]).toEqual([1, [2, 0, 1]]);
    expect(p.events).toEqual([{ type: 'mark', seat: 1, n: 1, why: 'playoff' }]);
    // In a playoff for the fewest, a marcher takes the first place.
    expect(
      outcome(
        { phase: 2, kind: Kind.Playoff, mask: MASK(0, 1, 2), playoffFor: TieFor.Fewest, playoffPlaces: 2 },
        [0, 40, 100, 0],
        [0, 0, 9, 0],
      ).marks,
    ).toEqual({
      0: '-1 playoff',
      2: '-1 playoff',
    });
    expect(
      outcome(
        { phase: 2, kind: Kind.Playoff, mask: MASK(0, 1, 2), playoffFor: TieFor.Fewest, playoffPlaces: 2 },
        [30, 30, 0, 0],
        [0, 0, 9, 0],
      ).ties,
    ).toEqual(['fewest [0,1] x1']);
  });

  it('H-8: two open ties are played off in turn; the erasing tie first', () => {
    const { m, s, rng } = newMatch();
    drive(m, s, rng, [35, 35, 35, 35]); // phase 2, [1,1,1,1], last dealer 0
    const r = drive(m, s, rng, [20, 50, 20, 50]); // dealer 1
    expect(r.ties).toEqual([
      { for: 'fewest', tied: [0, 2] },
      { for: 'most', tied: [1, 3] },
    ]);
    const a = drive(m, s, rng, [10, 0, 30, 0]);
    expect([a.playoff, a.dealer, a.events]).toEqual([
      { for: 'fewest', tied: [0, 2] },
      2,
      [
        { type: 'mark', seat: 0, n: -1, why: 'playoff' },
        { type: 'out', seat: 0 },
      ],
    ]);
    const b = drive(m, s, rng, [0, 30, 0, 10]);
    expect([b.playoff, b.dealer, b.players, b.events]).toEqual([
      { for: 'most', tied: [1, 3] },
      3,
      [1, 3],
      [{ type: 'mark', seat: 1, n: 1, why: 'playoff' }],
    ]);
    expect(b.after).toEqual({ game: 0, phase: 2, slate: [0, 2, 1, 1], in: [1, 2, 3], frame: [0, 0, 0, 0] });
    expect(drive(m, s, rng, [0, 0, 0, 0]).dealer).toBe(2);
  });
});

// ---- rubber and settlement ----------------------------------------------------

describe('H-9: rubber and settlement', () => {
  it('H-9, source example: A 3 frame marks, B 1 at 5 a mark: A -40, B 0, C +20, D +20', () => {
    expect(settlement([3, 1, 0, 0], 5)).toEqual([-40, 0, 20, 20]);
    expect(settlement([0, 0, 2, 0], 1.5)).toEqual([3, 3, -9, 3]);
  });

  /** Play one game in which `loser` loses: he takes the most three times, `other` once; `other` then erases first. */
  function loseGame(m: HinderscheMatch, s: HinderscheState, rng: Rng, loser: number, other: number): Rec {
    for (const l of [loser, loser, other, loser]) drive(m, s, rng, most(l));
    let r: Rec;
    do
      r = drive(
        m,
        s,
        rng,
        [0, 1, 2, 3].map((q) => (q === loser ? 40 : 10)),
      );
    while (!r.events.some((e) => e.type === 'game'));
    return r;
  }

  it('H-9: a rubber is 4 games; the last deal settles it at the tariff (A 3 marks, B 1: -40, 0, +20, +20)', () => {
    const { m, s, rng } = newMatch();
    for (let g = 0; g < 3; g++) {
      loseGame(m, s, rng, 0, 1);
      expect(m.over).toBe(false);
    }
    const r = loseGame(m, s, rng, 1, 0);
    expect(r.events.slice(-2)).toEqual([
      { type: 'game', loser: 1, frame: 1 },
      { type: 'rubber', balance: [-40, 0, 20, 20] },
    ]);
    expect(r.after).toEqual({ game: 4, phase: 1, slate: [0, 0, 0, 0], in: [0, 1, 2, 3], frame: [3, 1, 0, 0] });
    expect(m.over).toBe(true);
    const out = new Float64Array(16);
    m.matchMetrics(out);
    expect([0, 1, 2, 3].map((q) => out[q * 4])).toEqual([-40, 0, 20, 20]); // balance
    expect([0, 1, 2, 3].map((q) => out[q * 4 + 1])).toEqual([3, 1, 0, 0]); // frame
    expect([0, 1, 2, 3].map((q) => out[q * 4 + 2])).toEqual([1, 1, 0, 0]); // lost
  });

  it("H-9: the variants `games` and `tariff` set the rubber's length and price", () => {
    const table = { seats: 4, rules: { schleipfen: false, games: 1, tariff: 2 } };
    const m = hindersche.newMatch(table, { singleDeal: false, index: 0 }) as HinderscheMatch;
    m.recording = true;
    const s = new HinderscheState();
    const rng = new Rng(KEY, 30);
    for (let k = 0; k < 3; k++) drive(m, s, rng, most(3));
    const r: Rec = drive(m, s, rng, most(3));
    expect(r.events).toEqual([
      { type: 'mark', seat: 3, n: 1, why: 'most' },
      { type: 'game', loser: 3, frame: 2 },
      { type: 'rubber', balance: [4, 4, 4, -12] },
    ]);
    expect(m.over).toBe(true);
    expect(hindersche.variants.map((v) => [v.key, v.default])).toEqual([
      ['schleipfen', false],
      ['games', 4],
      ['tariff', 5],
    ]);
  });
});

// ---- records -------------------------------------------------------------------

describe('RECORD.md: Hindersche deal records', () => {
  it('a played rubber: required fields, players in order, hands [] and points null for seats out, before = previous after', () => {
    const m = new HinderscheMatch({ ...DEFAULT_RULES, schleipfen: true }, false, 1);
    m.recording = true;
    const s = new HinderscheState();
    const rng = new Rng(KEY, 40);
    let prev: string | null = null;
    const kinds = new Set<string>();
    for (let i = 0; i < 30 && kinds.size < 2; i++, prev = null) {
      m.reset(i);
      while (!m.over) {
        m.startDeal(s, rng);
        randomPlayout(s, rng);
        m.finishDeal(s);
        const r = m.record(s);
        for (const f of [
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
        ])
          expect(r).toHaveProperty(f);
        if (prev !== null) expect(JSON.stringify(r.before)).toBe(prev);
        prev = JSON.stringify(r.after);
        const players = r.players;
        expect(players[0]).toBe(r.tricks[0].leader);
        for (let q = 0; q < 4; q++) {
          const plays = players.includes(q);
          expect(r.hands[q].length).toBe(plays ? 9 : 0);
          expect(r.points[q] === null).toBe(!plays);
        }
        expect(r.trump).toBe(String(r.turnup).slice(-1));
        expect(r.outOfPlay.length).toBe(36 - 9 * players.length);
        kinds.add(r.kind);
      }
    }
    expect(kinds).toEqual(new Set(['normal', 'playoff']));
  });

  it('a single deal (--deals) is one normal deal from a fresh slate; a tie it leaves is listed, not played', () => {
    const m = hindersche.newMatch(
      { seats: 4, rules: { schleipfen: false, games: 4, tariff: 5 } },
      { singleDeal: true, index: 5 },
    ) as HinderscheMatch;
    m.recording = true;
    const s = new HinderscheState();
    const r = drive(m, s, new Rng(KEY, 50), [40, 40, 30, 30]);
    expect(m.over).toBe(true);
    expect([r.dealer, r.kind, r.ties, r.events]).toEqual([1, 'normal', [{ for: 'most', tied: [0, 1] }], []]);
    m.reset(6); // the harness resets the match before the next deal, before it writes the records
    expect(r.ties).toEqual([{ for: 'most', tied: [0, 1] }]);
    const metrics = new Float64Array(12);
    m.dealMetrics(s, metrics);
    expect([0, 1, 2, 3].map((q) => metrics[q * 3 + HinderscheMatch.dealMetricKeys.indexOf('marks')])).toEqual([
      0.5, 0.5, 0, 0,
    ]); // marks: the tie as a lottery
    expect(setHas(s.dealt, s.dealer * LANES, s.turnup)).toBe(true);
  });
});
