/**
 * The report of a tuning just played (`tafel tune --report`): drawn from its iterations
 * and from the digest its verification fed group by group, so that it is the page
 * `tafel report` draws from the tuning's journal, except for how the time is told.
 */
import { findGame } from '../games/index.js';
import type { TuneResult } from '../harness/tune/tune.js';
import { pathOf } from '../harness/run/spec.js';
import type { RunDigest } from './digest.js';
import { stamp } from './format.js';
import { writeReport } from './page.js';
import { botsOf, sprtData } from './run-data.js';
import { tuneData } from './tune-data.js';

/** Write the tuning's report to its `files.report`; returns the page's size in bytes. */
export function writeTuneReport(r: TuneResult, verifyDigest: RunDigest | null): number {
  const t = r.spec;
  const now = new Date();
  const v = r.verified;
  const sprt =
    v?.run.spec.sprt && verifyDigest
      ? sprtData(v.run.spec.sprt, findGame(t.game)!, t.unit, botsOf(v.run.spec), verifyDigest)
      : null;
  const session = r.resumed ? ` (this session, after ${r.resumed} iterations resumed)` : '';
  const data = tuneData(t, r.iterations, v && { estimate: v.difference, verdict: v.verdict, sprt }, {
    when: `played in ${r.seconds.toFixed(1)} s${session}, ended ${stamp(now)}`,
    sources: [],
    notes: [],
  });
  return writeReport(pathOf(t, 'report')!, [data], { made: now });
}
