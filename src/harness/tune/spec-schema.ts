/**
 * The tune spec's schema: what a tuning journal's header must hold to be read back as
 * a TuneSpec, checked in one place with a message that names the field (the run
 * schema's parts: entrants, parameters, paths, boards, metrics). Fields that journals
 * written by earlier versions lack (`programs`, `verify.boards`, `files.verifyDb`,
 * `files.report`) are optional here and given their defaults by `tuneSpecFromJournal`.
 */
import * as z from 'zod';
import { boardSet, count, entrant, metrics, params, path } from '../run/spec-schema.js';

const positive = count.refine((n) => n > 0, {
  error: (issue) => `expected a whole number from 1, got ${String(issue.input)}`,
});
const finite = z.number().refine(Number.isFinite, 'expected a finite number');

const tuned = z.object({
  key: z.string(),
  integer: z.boolean(),
  min: finite,
  max: finite,
  cEnd: finite,
  rEnd: finite,
  start: finite,
});

export const tuneSpecSchema = z
  .object({
    tafel: z.string(),
    game: z.string(),
    seats: positive,
    rules: params,
    unit: z.enum(['deal', 'match']),
    bot: entrant,
    tune: z.array(tuned).min(1),
    against: entrant.nullable(),
    iterations: positive,
    pairs: positive,
    alpha: finite,
    gamma: finite,
    aRatio: finite,
    seed: z.string(),
    verify: z.looseObject({ groups: positive, sprt: path, boards: boardSet.nullable().optional() }).nullable(),
    metrics,
    files: z.looseObject({
      dir: z.string(),
      out: path,
      journal: path,
      verifyOut: path,
      verifyJournal: path,
      verifyDb: path.optional(),
      report: path.optional(),
    }),
    moveTimeout: positive.nullable(),
    programs: z.record(z.string(), z.string()).optional(),
  })
  .loose();
