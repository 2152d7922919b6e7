/**
 * Reading a run from its database (`--db`): the `runs` row holds the run's spec (its
 * identity: what the journal's header holds but the file names), and the `seats` and
 * `matches` rows hold every value the run tallied. Each group's sums are rebuilt from
 * them as the run added them (seat rows in the order played: rotation, deal, seat), so
 * the page is the one the run's journal draws, with the distributions per seat and
 * deal that only a per-deal CSV gives a journal. The seat rows are streamed: a
 * million-deal run has four million.
 */
import { TafelError } from '../core/errors.js';
import type { Game } from '../games/game.js';
import { findGame } from '../games/index.js';
import { checkMetrics } from '../harness/run/journal.js';
import type { RunSpec } from '../harness/run/spec.js';
import { GroupTally } from '../harness/table/table.js';
import { RunTally } from '../harness/stats/tally.js';
import { openQuery } from '../harness/db/query.js';
import { sqlName } from '../harness/db/db.js';
import type { RunData } from './data.js';
import { RunDigest } from './digest.js';
import { stamp } from './format.js';
import { ValueCounts } from './histogram.js';
import { botsOf, runData, runIdentity } from './run-data.js';

type Connection = Awaited<ReturnType<typeof openQuery>>['connection'];

/** The report data of the one run in database `path`. */
export async function dbRunData(path: string): Promise<RunData> {
  const session = await openQuery([path], 'report');
  try {
    const runs = (await session.connection.runAndReadAll('SELECT spec, epoch_ms(finished) FROM runs')).getRows();
    if (runs.length !== 1)
      throw new TafelError(
        'bad-input',
        `report: ${path} holds ${runs.length} runs; a report draws a database of one run (or of its shards merged): give each run's journal instead`,
      );
    // The runs row keeps the spec less its files and timing flags, which the page does not show.
    const spec = JSON.parse(String(runs[0][0])) as RunSpec;
    const game = findGame(spec.game);
    if (!game) throw new TafelError('bad-input', `report: ${path}: unknown game '${spec.game}'`);
    checkMetrics(path, spec, game);
    const labels = spec.entrants.map((e) => e.label);
    const matchMetrics = spec.unit === 'match' ? game.matchMetrics : null;
    const tally = new RunTally(game.dealMetrics, matchMetrics, labels.length);
    const digest = new RunDigest(game, labels.length, spec.unit, spec.sprt);
    const values = game.dealMetrics.map(() => labels.map(() => new ValueCounts()));
    const matches = matchMetrics ? await matchRows(session.connection, game) : new Map<number, unknown[][]>();
    const group = new GroupTally(labels.length, game.dealMetrics.length, matchMetrics?.length ?? 0);
    const entrant = (label: string) => labels.indexOf(label);
    const finish = (g: number) => {
      for (const row of matches.get(g) ?? []) {
        const e = entrant(String(row[1]));
        row.slice(2).forEach((x, m) => (group.matchSums[e * matchMetrics!.length + m] += Number(x)));
        group.matchCounts[e]++;
      }
      tally.add(group);
      digest.add(group);
      group.clear();
    };
    const metrics = game.dealMetrics.map((m) => sqlName(m.key)).join(', ');
    const result = await session.connection.stream(
      `SELECT grp, rotation, deal, bot::VARCHAR, ${metrics} FROM seats ORDER BY grp, rotation, deal, seat`,
    );
    let current = -1;
    let last = '';
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      for (const row of chunk.getRows()) {
        const g = Number(row[0]);
        if (g !== current) {
          if (current >= 0) finish(current);
          current = g;
        }
        const deal = `${g} ${String(row[1])} ${String(row[2])}`;
        if (deal !== last) group.deals++;
        last = deal;
        // A seat out of the deal has NULL metrics; the run leaves it out of its bot's means.
        if (row[4] === null) continue;
        const e = entrant(String(row[3]));
        for (let m = 0; m < game.dealMetrics.length; m++) {
          const x = Number(row[4 + m]);
          values[m][e].add(x);
          group.dealSums[e * game.dealMetrics.length + m] += x;
        }
        group.dealCounts[e]++;
      }
    }
    if (current >= 0) finish(current);
    const skipped = await session.connection.runAndReadAll(
      'SELECT count(DISTINCT grp) FROM faults WHERE grp NOT IN (SELECT grp FROM deals)',
    );
    const finished = runs[0][1];
    const identity = runIdentity(spec, game, {
      tally,
      skipped: Number(skipped.getRows()[0][0]),
      decided: digest.sprt?.decision != null,
      when:
        finished === null
          ? 'database of a run that did not finish'
          : `run finished ${stamp(new Date(Number(finished)))}`,
      sources: [path],
    });
    return runData({
      identity,
      game,
      bots: botsOf(spec),
      tally,
      digest,
      sprt: spec.sprt,
      dealValues: values,
      notes: [],
    });
  } finally {
    session.close();
  }
}

/** Each group's match rows (bot, then the match metrics), in the order played. */
async function matchRows(c: Connection, game: Game): Promise<Map<number, unknown[][]>> {
  const metrics = game.matchMetrics.map((m) => sqlName(m.key)).join(', ');
  const r = await c.runAndReadAll(
    `SELECT grp, bot::VARCHAR, ${metrics} FROM matches ORDER BY grp, rotation, match, seat`,
  );
  const byGroup = new Map<number, unknown[][]>();
  for (const row of r.getRows()) {
    const g = Number(row[0]);
    byGroup.set(g, [...(byGroup.get(g) ?? []), row]);
  }
  return byGroup;
}
