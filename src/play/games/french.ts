/** The French pack's suits as the screens of the three French games name and colour them (C-1). */
import type { Suit } from '../screen.js';

/** By suit index of core/french.ts (C S H D). */
export const SUIT_LETTERS: readonly Suit[] = ['C', 'S', 'H', 'D'];
export const SUIT_NAMES: readonly string[] = ['clubs', 'spades', 'hearts', 'diamonds'];
