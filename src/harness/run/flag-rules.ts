/**
 * What a seed, a whole number and a bot program's name may be: the rules that flags and
 * plans' fields share, in a module of their own so that the command line checks its
 * flags without loading the games (bench/README.md, "Start-up").
 */

/** A master seed: what every seed (flag, plan field) may be, and the words that say so. */
export const SEED = /^[A-Za-z0-9_.:-]{1,64}$/;
export const SEED_RULE = '1-64 letters, digits or _ . : -';

/** `text` as a whole number (digits only, nothing around them, not too large to count exactly), else null. */
export function wholeNumber(text: string): number | null {
  const n = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(n) ? n : null;
}

/** A program's name: a word that no built-in bot has and no module path looks like. */
export const PROGRAM_NAME = /^[A-Za-z][\w-]*$/;
