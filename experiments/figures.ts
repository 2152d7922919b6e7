/**
 * The figures each built-in experiment declares for its page (its plan's `figures`):
 * `tafel report` draws them from the experiment's CSV (src/report/declared.ts says how).
 */
import type { DeclaredFigure } from '../src/report/declared.js';

export const FIGURES: Readonly<Record<string, readonly DeclaredFigure[]>> = {
  ladder: [],
  versus: [],
  'hindersche-marches': [],
  'anderle-pot': [],
  'pimc-properties': [],
  tune: [],
};
