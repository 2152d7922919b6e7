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
 * - both bots' time per move in that run (wall time of their decisions in one thread,
 *   forced ones included; figures from one run share the machine's state).
 *
 * Every candidate meets the champion on the same cards (group g of a seed is dealt the
 * same in every run), so candidates can be compared with each other too, roughly: their
 * differences come from different games.
 *
 *   npx tsc -p tsconfig.json
 *   node dist/experiments/versus.js --game G --champion C --bots a,b,... [--deals N] [--seed S] [--tag T] [--out-dir DIR]
 */
import { pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import { GAMES, findGame } from '../src/games/index.js';
import type { Game } from '../src/games/game.js';
import { resolveLineup } from '../src/harness/lineup.js';
import type { Estimate } from '../src/harness/stats.js';
import { checkOutDir, count, parseFlags, runCommand, seed, writeWhole } from './command.js';
import { meanOf, playPaired, type Clock } from './paired.js';

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

export async function runExperiment(o: Options): Promise<Bout[]> {
  const game = gameNamed(o.game);
  const seats = game.defaultSeats;
  const bouts: Bout[] = [];
  for (const bot of o.bots) {
    const clocks: [Clock, Clock] = [
      { ms: 0, moves: 0 },
      { ms: 0, moves: 0 },
    ];
    const played = await playPaired(game, seats, `${bot},${o.champion}`, 'deal', o.deals, o.seed, clocks);
    bouts.push({
      bot,
      deal: game.dealMetrics.map((m, i) => ({ metric: m.key, estimate: meanOf(played.diffs[i]) })),
      msPerMove: clocks[0].ms / clocks[0].moves,
      moves: clocks[0].moves,
      championMsPerMove: clocks[1].ms / clocks[1].moves,
      championMoves: clocks[1].moves,
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

export function report(o: Options, bouts: readonly Bout[], seconds: number, command: string): string {
  const game = findGame(o.game)!;
  const headline = game.dealMetrics[0];
  const digits = bouts.some((b) => Math.abs(b.deal[0].estimate.mean) < 0.1) ? 3 : 2;
  const show = (e: Estimate, d = digits) =>
    `${e.mean.toFixed(d)}${Number.isFinite(e.low) ? ` [${e.low.toFixed(d)}, ${e.high.toFixed(d)}]` : ''}`;
  const verdict = (e: Estimate) => (e.low > 0 ? '**beats**' : e.high < 0 ? 'loses' : 'not shown');
  const others = game.dealMetrics.slice(1);
  return (
    [
      `# Against the champion: ${o.game}`,
      '',
      `Each bot against \`${o.champion}\` head to head on ${o.deals} duplicate deal groups (\`tafel run --bots <bot>,${o.champion}\`), seed \`${o.seed}\`.`,
      `Produced by \`${command}\` in ${seconds.toFixed(0)} s in one thread; regenerate it with that command rather than editing it.`,
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
      "Times per move are the bots' own decisions in this run, forced ones included, in one thread of this machine.",
    ].join('\n') + '\n'
  );
}

const USAGE = `usage: node dist/experiments/versus.js --game G --champion C --bots a,b,... [--deals N] [--seed S] [--tag T] [--out-dir DIR]
  --game G       the game
  --champion C   the bot to beat, with parameters as in tafel run
  --bots a,b,... the candidates, each played against the champion
  --deals N      duplicate deal groups per candidate (default 300)
  --seed S       master seed (default versus-1)
  --tag T        name the files versus-<game>-<T> (to keep runs of one game apart)
  --out-dir DIR  where versus-<game>[-<T>].csv and .md go (default results)`;

async function main(argv: string[]): Promise<void> {
  const v = parseFlags(argv, {
    game: { type: 'string' },
    champion: { type: 'string' },
    bots: { type: 'string' },
    deals: { type: 'string' },
    seed: { type: 'string' },
    tag: { type: 'string' },
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
  const dir = String(v['out-dir'] ?? 'results');
  const name = `versus-${o.game}${v.tag === undefined ? '' : `-${String(v.tag)}`}`;
  checkOutDir(dir, [`${name}.csv`, `${name}.md`], v.force === true);
  const command = `node dist/experiments/versus.js ${argv.join(' ')}`.trim();
  const started = performance.now();
  const bouts = await runExperiment(o);
  const seconds = (performance.now() - started) / 1000;
  writeWhole(dir, `${name}.csv`, stringify(csvRows(o, bouts), { header: true, columns: [...COLUMNS] }));
  const text = report(o, bouts, seconds, command);
  writeWhole(dir, `${name}.md`, text);
  process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCommand('versus', USAGE, main);
