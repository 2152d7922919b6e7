/**
 * Experiment: which configurations beat a game's champion (issue 25)? Each candidate
 * plays the champion head to head on duplicate deals, as `tafel run --bots C,champion`
 * does (C,champion,C,champion at four seats: partners in Viersche, two of each at the
 * table in the games of individuals; the rotation swaps them), and the report gives
 * per candidate:
 *
 * - the paired difference per deal on the game's headline metric, candidate minus
 *   champion, oriented so that positive is better for the candidate, with a Student-t
 *   95% interval over duplicate groups: the candidate *beats* the champion when the
 *   interval lies above 0, *loses* when below; the same for the other deal metrics;
 * - both bots' time per move in that run (wall time of their decisions on the worker
 *   threads, forced ones included; figures from one run share the machine's state).
 *
 * Every candidate meets the champion on the same cards (group g of a seed is dealt the
 * same in every run), so candidates can be compared with each other too, roughly: their
 * differences come from different games. Each bout is a run of the experiment's plan
 * (paired.ts, plan.ts): on the worker pool, resumable, in shards.
 *
 *   npx tsc -p tsconfig.json
 *   node dist/experiments/versus.js --game G --champion C --bots a,b,... [--deals N] [--seed S] [--tag T]
 *       [--workers W] [--work-dir DIR] [--resume] [--shard i/n] [--out-dir DIR] [--force]
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import { GAMES, findGame } from '../src/games/index.js';
import type { Game } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import type { MoveTime } from '../src/harness/run/run.js';
import { parseShard } from '../src/harness/run/shard.js';
import type { Estimate } from '../src/harness/stats/stats.js';
import { estimateText } from '../src/harness/stats/interval-text.js';
import { checkOutDir, count, parseFlags, runCommand, seed, writeWhole } from './command.js';
import { meanOf, pairedRun, pairedValues, perMove, runName } from './paired.js';
import { databasesOfRun, playPlan, type PlanOptions } from './plan.js';
import { writtenLine } from '../src/report/format.js';

export interface Options {
  game: string;
  champion: string;
  bots: readonly string[];
  deals: number;
  seed: string;
}

export interface Bout {
  bot: string;
  /** Per deal metric, in the game's order: candidate minus champion, positive = better for the candidate. */
  deal: { metric: string; estimate: Estimate }[];
  msPerMove: number;
  moves: number;
  championMsPerMove: number;
  championMoves: number;
}

function gameNamed(name: string): Game {
  const game = findGame(name);
  if (!game)
    throw new TafelError('unknown-game', `unknown game '${name}' (known: ${GAMES.map((g) => g.name).join(', ')})`);
  return game;
}

/** How the bouts are played (none of it changes the results, only the times per move). */
export type Session = Pick<PlanOptions, 'workDir' | 'workers' | 'resume' | 'force' | 'shard'>;

/** Play every bout (a run each) and compare; null for a shard (the report is made from all parts). */
export async function runExperiment(o: Options, s: Session): Promise<Bout[] | null> {
  const game = gameNamed(o.game);
  const table = { seats: game.defaultSeats, rules: resolveParams(game.variants, {}, 'experiment') };
  game.checkTable(table);
  const runs = o.bots.map((bot) =>
    pairedRun(runName(bot, 'vs', o.champion), game, table, `${bot},${o.champion}`, 'deal', o.deals, o.seed),
  );
  const times = new Map<string, readonly MoveTime[] | null>();
  await playPlan(runs, {
    ...s,
    progress: (line) => process.stderr.write(`${line}\n`),
    onResult: (run, r) => times.set(run.name, r.moveTime),
  });
  if (s.shard) return null;
  const bouts: Bout[] = [];
  for (const [i, run] of runs.entries()) {
    const played = await pairedValues(databasesOfRun(run.name, s.workDir), run);
    const bot = perMove(times.get(run.name), 0);
    const champion = perMove(times.get(run.name), 1);
    bouts.push({
      bot: o.bots[i],
      deal: game.dealMetrics.map((m, i) => ({ metric: m.key, estimate: meanOf(played.diffs[i]) })),
      msPerMove: bot.ms,
      moves: bot.moves,
      championMsPerMove: champion.ms,
      championMoves: champion.moves,
    });
  }
  return bouts;
}

const COLUMNS = ['game', 'champion', 'bot', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

export function csvRows(o: Options, bouts: readonly Bout[]): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const rows: Record<(typeof COLUMNS)[number], string | number>[] = [];
  for (const b of bouts) {
    const row = (quantity: string, n: number, mean: number, low = NaN, high = NaN) =>
      rows.push({
        game: o.game,
        champion: o.champion,
        bot: b.bot,
        quantity,
        n,
        mean: fix(mean),
        ci95_low: fix(low),
        ci95_high: fix(high),
      });
    b.deal.forEach((d, i) =>
      row(
        i === 0 ? 'deal_vs_champion' : `deal_vs_champion:${d.metric}`,
        d.estimate.n,
        d.estimate.mean,
        d.estimate.low,
        d.estimate.high,
      ),
    );
    row('ms_per_move', b.moves, b.msPerMove);
    row('champion_ms_per_move', b.championMoves, b.championMsPerMove);
  }
  return rows;
}

export function report(o: Options, bouts: readonly Bout[], seconds: number, command: string, workers: number): string {
  const game = findGame(o.game)!;
  const headline = game.dealMetrics[0];
  const digits = bouts.some((b) => Math.abs(b.deal[0].estimate.mean) < 0.1) ? 3 : 2;
  const show = (e: Estimate, d = digits) => (Number.isFinite(e.mean) ? estimateText(e, (x) => x.toFixed(d)) : '-');
  const verdict = (e: Estimate) =>
    e.degenerate ? 'no interval' : e.low > 0 ? '**beats**' : e.high < 0 ? 'loses' : 'not shown';
  const others = game.dealMetrics.slice(1);
  return (
    [
      `# Against the champion: ${o.game}`,
      '',
      `Each bot against \`${o.champion}\` head to head on ${o.deals} duplicate deal groups (\`tafel run --bots <bot>,${o.champion}\`), seed \`${o.seed}\`.`,
      `Produced by \`${command}\` in ${seconds.toFixed(0)} s on ${workers} worker thread${workers === 1 ? '' : 's'}; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      `Score: paired difference per deal in \`${headline.key}\` (${headline.description}), bot minus champion,`,
      `${headline.higherIsBetter ? '' : 'sign flipped so that '}positive is better for the bot. 95% intervals in brackets.`,
      '',
      `| bot | score vs ${o.champion} | 95% verdict | ms per move | champion's ms per move | ${others.map((m) => m.key).join(' | ')} |`,
      `|---|---|---|---|---|${others.map(() => '---|').join('')}`,
      ...bouts.map(
        (b) =>
          `| ${b.bot} | ${show(b.deal[0].estimate)} | ${verdict(b.deal[0].estimate)} | ${b.msPerMove.toFixed(2)} | ${b.championMsPerMove.toFixed(2)} | ${b.deal
            .slice(1)
            .map((d) => show(d.estimate, 3))
            .join(' | ')} |`,
      ),
      '',
      `Other metrics (oriented as the score): ${others.map((m) => `\`${m.key}\` (${m.description})`).join('; ')}.`,
      "Times per move are the bots' own decisions in this run, forced ones included, on this machine's worker threads (the moves played in this session).",
    ].join('\n') + '\n'
  );
}

const USAGE = `usage: node dist/experiments/versus.js --game G --champion C --bots a,b,... [--deals N] [--seed S] [--tag T] [--workers W] [--work-dir DIR] [--resume] [--shard i/n] [--out-dir DIR] [--force]
  --game G       the game
  --champion C   the bot to beat, with parameters as in tafel run
  --bots a,b,... the candidates, each played against the champion
  --deals N      duplicate deal groups per candidate (default 300)
  --seed S       master seed (default versus-1)
  --tag T        name the files versus-<game>-<T> (to keep runs of one game apart)
  --workers W    worker threads (default: the machine's cores)
  --work-dir DIR where each bout's journal and database go (default work/versus-<game>[-<T>])
  --resume       continue the runs in --work-dir (an interrupted experiment)
  --shard i/n    play part i of n of every run (then make the report from all parts in one --work-dir)
  --out-dir DIR  where versus-<game>[-<T>].csv and .md go (default results)
  --force        replace earlier results and runs`;

async function main(argv: string[]): Promise<void> {
  const v = parseFlags(argv, {
    game: { type: 'string' },
    champion: { type: 'string' },
    bots: { type: 'string' },
    deals: { type: 'string' },
    seed: { type: 'string' },
    tag: { type: 'string' },
    workers: { type: 'string' },
    'work-dir': { type: 'string' },
    resume: { type: 'boolean' },
    shard: { type: 'string' },
    'out-dir': { type: 'string' },
  });
  if (v.tag !== undefined && !/^[A-Za-z0-9_.-]{1,32}$/.test(String(v.tag)))
    throw new TafelError('bad-option', `--tag '${String(v.tag)}': 1-32 letters, digits or _ . -`);
  if (v.game === undefined || v.champion === undefined || v.bots === undefined)
    throw new TafelError('bad-option', '--game, --champion and --bots are required');
  const o: Options = {
    game: String(v.game),
    champion: String(v.champion),
    bots: String(v.bots).split(','),
    deals: count(v.deals, 300, '--deals', 1),
    seed: seed(v.seed, 'versus-1'),
  };
  const game = gameNamed(o.game);
  // Every bot name is checked, and the output directory probed, before the first deal.
  for (const bot of o.bots) await resolveLineup(`${bot},${o.champion}`, game, game.defaultSeats);
  const workers = count(v.workers, availableParallelism(), '--workers', 1);
  const shard = v.shard === undefined ? null : parseShard(String(v.shard));
  const dir = String(v['out-dir'] ?? 'results');
  const name = `versus-${o.game}${v.tag === undefined ? '' : `-${String(v.tag)}`}`;
  if (!shard) checkOutDir(dir, [`${name}.csv`, `${name}.md`], v.force === true);
  const command = `node dist/experiments/versus.js ${argv.join(' ')}`.trim();
  const started = performance.now();
  const bouts = await runExperiment(o, {
    workDir: String(v['work-dir'] ?? `work/${name}`),
    workers,
    resume: v.resume === true,
    force: v.force === true,
    shard,
  });
  if (!bouts) return;
  const seconds = (performance.now() - started) / 1000;
  writeWhole(dir, `${name}.csv`, stringify(csvRows(o, bouts), { header: true, columns: [...COLUMNS] }));
  const text = report(o, bouts, seconds, command, workers);
  writeWhole(dir, `${name}.md`, text);
  process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCommand('versus', USAGE, main);
