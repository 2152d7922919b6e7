/**
 * Time controls for bot programs, as chess has them: a base time and an increment per
 * move, on a clock per seat that starts full at each deal (`/deal`) or each match
 * (`/match`). A move may take what is left on the clock; the increment is added after
 * it. `--time-control 2+0.05` gives each seat 2 s per deal plus 50 ms per move made.
 */
import { TafelError } from '../../core/errors.js';

export interface TimeControl {
  readonly baseMs: number;
  readonly incMs: number;
  /** The clock is set to the base at the start of each deal, or of each match. */
  readonly per: 'deal' | 'match';
}

const FORM = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?(?:\/(deal|match))?$/;

/** `BASE[+INC][/deal|/match]` in seconds; without `/...` the clock is per `unit` (the run's). */
export function parseTimeControl(text: string, unit: 'deal' | 'match'): TimeControl {
  const m = FORM.exec(text.trim());
  const baseMs = m ? Math.round(Number(m[1]) * 1000) : 0;
  if (!m || baseMs <= 0) {
    throw new TafelError(
      'bad-option',
      `--time-control '${text}': expected BASE[+INC][/deal|/match] in seconds, BASE above 0 (e.g. 2+0.05)`,
    );
  }
  return {
    baseMs,
    incMs: m[2] === undefined ? 0 : Math.round(Number(m[2]) * 1000),
    per: (m[3] as 'deal' | 'match') ?? unit,
  };
}

/** `2+0.05/deal`: the time control as `parseTimeControl` reads it back. */
export function timeControlText(tc: TimeControl): string {
  return `${tc.baseMs / 1000}+${tc.incMs / 1000}/${tc.per}`;
}
