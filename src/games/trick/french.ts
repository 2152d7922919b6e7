/**
 * The 36-card French pack (core/french.ts) laid out for trick play once trump is known:
 * every physical card gets a code in lanes of strength,
 *
 *   lane 0       the trump suit, weakest to strongest, in the order a game gives
 *   lanes 1..3   the other suits in pack order (C S H D without trump), 6 7 8 9 10 J Q
 *                K A (bit = physical rank)
 *
 * so a higher bit beats a lower one in the same lane, any trump beats any plain card,
 * "holding the suit led" is `hand[led] !== 0`, and a card's points depend only on its
 * code. A game may promote the jack of the other suit of trump's colour into the trumps
 * (Viersche's Kloei); its suit then has no bit 5. The tables are built once, at load,
 * for each layout a game asks for.
 */
import { CLUBS, DIAMONDS, JACK, PACK_SIZE, SUIT_SIZE, cardName, sameColour } from '../../core/french.js';
import { LANES } from '../../core/cardset.js';
import { ROW, type TrickTables } from './state.js';

/** Every card of the pack by its physical index (core/french.ts): the values of a card-valued fact. */
export const CARD_NAMES: readonly string[] = Array.from({ length: PACK_SIZE }, (_, c) => cardName(c));

/** Trumps are lane 0 in every French layout. */
export const TRUMP_LANE = 0;
/** Codes of one layout: lanes 0..3 of 32 bits. */
const CODES = LANES << 5;

export interface FrenchRanking {
  /** Trump-lane bit of each physical rank (6 7 8 9 10 J Q K A) of the trump suit. */
  readonly trumpBits: readonly number[];
  /** Trump-lane bit of the promoted jack of trump's colour, or -1 for none. */
  readonly promotedJack: number;
  /** Points by trump-lane bit. */
  readonly trumpPoints: readonly number[];
  /** Points by rank of a plain card (6 7 8 9 10 J Q K A). */
  readonly plainPoints: readonly number[];
  /** Points some trick earns besides its cards (a last-trick bonus). */
  readonly bonus: number;
}

export class FrenchLayout implements TrickTables {
  /** `points[code]`: a card's points (the same for every trump). */
  readonly points = new Uint8Array(CODES);
  readonly worth = this.points;
  readonly strength = new Int8Array(LANES * CODES);
  readonly suit = new Int8Array(CODES);
  readonly packWorth: number;
  readonly runBreaks = null;
  /**
   * `lanePoints[lane << 10 | mask]`: the points of the cards of `mask` in `lane` (every
   * lane fits ten bits), so that summing a hand's points is a lookup a lane.
   */
  readonly lanePoints = new Uint16Array(LANES << 10);
  /** `effective[trump * 36 + physical]`: the code of a physical card. */
  readonly effective = new Uint8Array(4 * PACK_SIZE);
  /** `physicalOf[trump * 128 + code]`: the physical card of a code, 255 for none. */
  private readonly physicalOf = new Uint8Array(4 * CODES).fill(255);
  /** `full[trump * LANES + lane]`: every card of the pack as codes under that trump. */
  readonly full = new Int32Array(4 * LANES);

  constructor(ranking: FrenchRanking) {
    for (let trump = CLUBS; trump <= DIAMONDS; trump++) {
      let lane = 1;
      for (let suit = CLUBS; suit <= DIAMONDS; suit++) {
        const suitLane = suit === trump ? TRUMP_LANE : lane++;
        for (let rank = 0; rank < SUIT_SIZE; rank++) {
          let code: number;
          if (suit === trump) code = ranking.trumpBits[rank];
          else if (ranking.promotedJack >= 0 && suit === sameColour(trump) && rank === JACK)
            code = ranking.promotedJack;
          else code = (suitLane << 5) | rank;
          const physical = suit * SUIT_SIZE + rank;
          this.effective[trump * PACK_SIZE + physical] = code;
          this.physicalOf[trump * CODES + code] = physical;
          this.full[trump * LANES + (code >>> 5)] |= 1 << (code & 31);
        }
      }
    }
    let total = 0;
    for (let bit = 0; bit < ranking.trumpPoints.length; bit++) total += this.points[bit] = ranking.trumpPoints[bit];
    for (let lane = 1; lane < LANES; lane++) {
      for (let rank = 0; rank < SUIT_SIZE; rank++) this.points[(lane << 5) | rank] = ranking.plainPoints[rank];
    }
    for (let rank = 0; rank < SUIT_SIZE; rank++) total += (LANES - 1) * ranking.plainPoints[rank];
    if (ranking.promotedJack >= 0) total -= ranking.plainPoints[JACK];
    this.packWorth = total + ranking.bonus;
    for (let lane = 0; lane < LANES; lane++) {
      for (let mask = 1; mask < 1 << 10; mask++) {
        const low = 31 - Math.clz32(mask & -mask);
        this.lanePoints[(lane << 10) | mask] =
          this.lanePoints[(lane << 10) | (mask & (mask - 1))] + this.points[(lane << 5) | low];
      }
    }
    for (let code = 0; code < CODES; code++) this.suit[code] = code >>> 5;
    for (let led = 0; led < LANES; led++) {
      for (let code = 0; code < CODES; code++) {
        const lane = code >>> 5;
        this.strength[(led << ROW) | code] = lane === TRUMP_LANE ? 16 + (code & 31) : lane === led ? code & 31 : -1;
      }
    }
  }

  toCode(trump: number, physical: number): number {
    return this.effective[trump * PACK_SIZE + physical];
  }

  /** The physical card of a code under `trump`; -1 if the code is no card. */
  toPhysical(trump: number, code: number): number {
    const p = code >= 0 && code < CODES ? this.physicalOf[trump * CODES + code] : 255;
    return p === 255 ? -1 : p;
  }

  codeName(trump: number, code: number): string {
    const p = this.toPhysical(trump, code);
    return p < 0 ? `code ${code} (no card)` : cardName(p);
  }

  /** Lane `lane` of the whole pack as codes under `trump`. */
  fullLane(trump: number, lane: number): number {
    return this.full[trump * LANES + lane];
  }
}

/**
 * Deal a shuffled pack to four players: card i of `deck` (physical cards) goes, as its
 * code `effective[codes + deck[i]]` (`codes` = trump x 36), to seat `(first + i) & 3`;
 * `hands` gets LANES words a seat, overwritten. Each seat's hand gathers in two locals
 * rather than in memory: a lane of a French layout holds at most 16 bits, so lanes 0+1
 * share one word and lanes 2+3 the other.
 */
export function dealFour(
  deck: Uint8Array,
  effective: Uint8Array,
  codes: number,
  first: number,
  hands: Int32Array,
): void {
  let a0 = 0, b0 = 0, a1 = 0, b1 = 0, a2 = 0, b2 = 0, a3 = 0, b3 = 0; // prettier-ignore
  for (let i = 0; i < PACK_SIZE; i += 4) {
    let c = effective[codes + deck[i]];
    let bit = 1 << ((c & 15) | ((c & 32) >>> 1));
    let high = -(c >>> 6);
    a0 |= bit & ~high;
    b0 |= bit & high;
    c = effective[codes + deck[i + 1]];
    bit = 1 << ((c & 15) | ((c & 32) >>> 1));
    high = -(c >>> 6);
    a1 |= bit & ~high;
    b1 |= bit & high;
    c = effective[codes + deck[i + 2]];
    bit = 1 << ((c & 15) | ((c & 32) >>> 1));
    high = -(c >>> 6);
    a2 |= bit & ~high;
    b2 |= bit & high;
    c = effective[codes + deck[i + 3]];
    bit = 1 << ((c & 15) | ((c & 32) >>> 1));
    high = -(c >>> 6);
    a3 |= bit & ~high;
    b3 |= bit & high;
  }
  putHand(hands, first & 3, a0, b0);
  putHand(hands, (first + 1) & 3, a1, b1);
  putHand(hands, (first + 2) & 3, a2, b2);
  putHand(hands, (first + 3) & 3, a3, b3);
}

function putHand(hands: Int32Array, seat: number, low: number, high: number): void {
  const h = seat * LANES;
  hands[h] = low & 0xffff;
  hands[h + 1] = low >>> 16;
  hands[h + 2] = high & 0xffff;
  hands[h + 3] = high >>> 16;
}
