/**
 * The memory of one deal of trick play: every number a `TrickState` holds lives in one
 * Int32Array at the offsets below, the kernel's and the game's alike. So copying a
 * state (what search does at every node) is one `set`, a state never forgets a field
 * when it is copied, and the hot path reads one array whose position V8 loads once.
 *
 * The offsets are constants, sized for the largest table any game allows (13 seats,
 * 12 tricks, 96 moves), so that every access is an addition of constants. The
 * history comes last: a state copies only the part of it that its game can use.
 *
 * A game keeps its own scalars at `GAME ..` (up to `GAME_END`), its own numbers per
 * seat in the rows `SEAT_GAME + k * MAX_SEATS` and per trick in `TRICK_GAME + k *
 * MAX_TRICKS`, and names them in its state module.
 */
import { LANES } from '../../core/cardset.js';

export const MAX_SEATS = 13;
export const MAX_TRICKS = 12;
/** Moves in a deal: Hindersche with schleipfen needs 36 cards and 54 answers. */
const MAX_PLIES = 96;

// ---- Scalars ------------------------------------------------------------------------

/** Seats at the table. */
export const SEATS = 0;
/** Seats taking part in this deal (a trick has as many cards). */
export const PLAYERS = 1;
/** Tricks in the deal. */
export const TRICKS = 2;
export const DEALER = 3;
/** The first seat of the deal in playing order. */
export const FOREHAND = 4;
/** The seat that acts; -1 when the deal is over. */
export const TO_MOVE = 5;
/** `Decision` the seat to move faces. */
export const DECISION = 6;
/** Index of the current trick. */
export const TRICK = 7;
/** Cards already in the current trick. */
export const POS = 8;
export const LEADER = 9;
/** The row of the strength table that the lead chose (the suit led, as the game numbers suits). */
export const LED = 10;
/** Strength of the card winning the trick so far; -1 while no card can win. */
export const BEST = 11;
export const BEST_SEAT = 12;
/** What the cards of the current trick are worth to the search measure (their points). */
export const TRICK_WORTH = 13;
/** Moves made so far. */
export const PLIES = 14;
/** Trump suit (0..3, C S H D), or -1. */
export const TRUMP = 15;
/** The turned card's code, or -1. */
export const TURNUP = 16;
/** The seat that holds the turned card, or -1 (out of play, or none). */
export const TURNUP_HOLDER = 17;
/** 1 while its holder still holds the turned card. */
export const TURNUP_HELD = 18;
/** The game's scalars, up to `GAME_END`. */
export const GAME = 24;
const GAME_END = 64;

// ---- Per seat (MAX_SEATS each) -------------------------------------------------------

/** Cards each seat holds now. */
export const COUNT = GAME_END;
/** The search measure each seat has taken (card points; tricks where the measure is tricks). */
export const TAKEN = COUNT + MAX_SEATS;
/** Tricks each seat has won (kept, where a trick can change hands after it is won). */
export const WON = TAKEN + MAX_SEATS;
/** What each seat's play has shown of its hand: a mask the game defines (public). */
export const VOIDS = WON + MAX_SEATS;
/** The next seat of the deal in playing order after each seat; -1 for a seat not taking part. */
export const NEXT = VOIDS + MAX_SEATS;
/** Three rows of the game's own numbers per seat. */
export const SEAT_GAME = NEXT + MAX_SEATS;
/** Current hands, LANES masks per seat. */
export const HANDS = SEAT_GAME + 3 * MAX_SEATS;
/** Hands at the start of play. */
export const DEALT = HANDS + LANES * MAX_SEATS;
/** The cards out of play (undealt, the turned card among them when nobody holds it). */
export const STACK = DEALT + LANES * MAX_SEATS;
/** Every card played so far. */
export const PLAYED = STACK + LANES;

// ---- Per trick (MAX_TRICKS each) -----------------------------------------------------

/** The ply of each trick's first card. */
export const T_START = PLAYED + LANES;
export const T_LEADER = T_START + MAX_TRICKS;
/** The seat whose card won each trick. */
export const T_WINNER = T_LEADER + MAX_TRICKS;
/** What each trick was worth to its taker (bonuses included). */
export const T_VALUE = T_WINNER + MAX_TRICKS;
/** Three rows of the game's own numbers per trick. */
export const TRICK_GAME = T_VALUE + MAX_TRICKS;

// ---- History -------------------------------------------------------------------------

/** Every move in order, as `move | seat << 8`. */
export const HIST = TRICK_GAME + 3 * MAX_TRICKS;
export const WORDS = HIST + MAX_PLIES;

/** The words a game with at most `plies` moves a deal uses (what a copy copies). */
export function wordsFor(plies: number): number {
  if (plies > MAX_PLIES) throw new RangeError(`trick layout: ${plies} moves exceed ${MAX_PLIES}`);
  return HIST + plies;
}
