/**
 * The run spec's schema: what a journal's header must hold to be read back as a RunSpec,
 * checked in one place with a message that names the field and what is wrong. zod,
 * because it is maintained, has no dependencies and its issues carry the field's path.
 * Fields that journals written by earlier versions lack (`boards`, `programs`,
 * `timeControl`, `timeMoves`, `files.db`, `files.report`) are optional here and given
 * their defaults by `specFromJournal`.
 */
import * as z from 'zod';

export const count = z.number().refine((n) => Number.isSafeInteger(n) && n >= 0, {
  error: (issue) => `expected a whole number from 0, got ${String(issue.input)}`,
});
export const path = z.string().nullable();
export const params = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const entrant = z.object({
  label: z.string(),
  bot: z.string(),
  source: z.string(),
  params,
  cheats: z.boolean(),
});

const board = z.object({
  id: z.string(),
  line: z.number(),
  dealer: z.number(),
  hands: z.array(z.unknown()),
  turnup: z.string().nullable(),
});

/** `--boards` as a spec holds it: the file as typed and its boards. */
export const boardSet = z.object({ file: z.string(), boards: z.array(board) });

export const metrics = z.object({ deal: z.array(z.string()), match: z.array(z.string()) });

const timeControl = z.object({ baseMs: count, incMs: count, per: z.enum(['deal', 'match']) });

export const runSpecSchema = z
  .object({
    tafel: z.string(),
    game: z.string(),
    seats: count,
    rules: params,
    bots: z.array(z.string()).min(1),
    entrants: z.array(entrant).min(1),
    seatings: z.array(z.array(count)).min(1),
    seed: z.string(),
    unit: z.enum(['deal', 'match']),
    groups: count,
    boards: boardSet.nullable().optional(),
    shard: z
      .object({ index: count, count })
      .refine((s) => s.index < s.count, 'expected index below count')
      .nullable(),
    programs: z.record(z.string(), z.string()).optional(),
    sprt: path,
    metrics,
    files: z.looseObject({
      dir: z.string(),
      out: path,
      journal: path,
      records: path,
      dealCsv: path,
      db: path.optional(),
      report: path.optional(),
    }),
    moveTimeout: count.nullable(),
    timeControl: timeControl.nullable().optional(),
    onBotError: z.enum(['stop', 'skip']),
    timeMoves: z.boolean().optional(),
  })
  .loose()
  .superRefine((v, ctx) => {
    v.seatings.forEach((s, r) => {
      if (s.length !== v.seats)
        ctx.addIssue({ code: 'custom', path: ['seatings', r], message: `expected ${v.seats} seats, got ${s.length}` });
      s.forEach((e, seat) => {
        if (e >= v.entrants.length)
          ctx.addIssue({
            code: 'custom',
            path: ['seatings', r, seat],
            message: `expected an entrant below ${v.entrants.length}, got ${e}`,
          });
      });
    });
  });

/** The first problem with a value a schema refused: `spec.groups: expected ..., got ...`. */
export function firstProblem(error: z.ZodError, root: string): string {
  const issue = error.issues[0];
  const where = [root, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))]
    .join('')
    .replace(/^\./, '');
  return `${where}: ${issue.message}`;
}
