/**
 * Move lists kept in order of descending score, for search move ordering (the solver's
 * and a game's own endgame search): typed arrays, a few entries, insertion sort.
 */

/** Insert `code` with `score` into the list `list[base .. base + n)`, kept sorted by descending score; the new length. */
export function insertByScore(
  list: Int32Array,
  scores: Int32Array,
  base: number,
  n: number,
  code: number,
  score: number,
): number {
  let i = base + n;
  while (i > base && scores[i - 1] < score) {
    scores[i] = scores[i - 1];
    list[i] = list[i - 1];
    i--;
  }
  scores[i] = score;
  list[i] = code;
  return n + 1;
}
