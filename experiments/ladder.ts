/**
 * Experiment: the strength ladder (issue 6). How strong is each bot, per game, on one
 * scale from `random` to the cheating `oracle`?
 *
 * Every bot of the ladder plays the same reference opponent, `heuristic`, on duplicate
 * deals (`tafel run --bots B,heuristic`: the same cards with the seats rotated, so the
 * paired difference cancels the luck of the deal), and on whole matches. Per bot it
 * reports:
 *
 * - the paired difference per deal on the game's headline metric, B minus heuristic,
 *   oriented so that positive is better for B, with a Student-t 95% interval over
 *   duplicate groups (a bot "beats heuristic with 95% confidence" when the interval
 *   lies above 0);
 * - the same for each other deal metric of the game (a Hindersche deal's `points` and
 *   `march`, beside its headline `marks`);
 * - the same over whole matches, and the match win rate where the game has one
 *   (Wilson interval);
 * - its time per move: wall time of its `act` calls over every decision it faced
 *   (forced moves included), on one core;
 * - the share of the random-to-oracle gap it closes: (d(B) - d(random)) / (d(oracle) -
 *   d(random)), d being the paired difference against heuristic (heuristic's own d is
 *   0 by definition). Its interval is a delta-method approximation that ignores the
 *   correlation between the estimates (they share the deals), so it is conservative.
 *
 * The oracle sees every hand: it is a ceiling for measurement, marked as cheating.
 *
 *   npx tsc -p tsconfig.json
 *   node dist/experiments/ladder.js --game viersche [--deals N] [--matches M] [--seed S] [--bots a,b,...] [--out-dir DIR] [--force]
 *
 * A bad flag, game or bot, or an unwritable --out-dir, stops it at once with one line
 * (status 2); a bot that fails mid-run stops it with the bot, seat, seed and deal.
 */
import { pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import type { BotSpec } from '../bots/bot.js';
import { GAMES, findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import type { Game } from '../src/games/game.js';
import { resolveLineup, type Lineup } from '../src/harness/lineup.js';
import { runTournament } from '../src/harness/run.js';
import { liveRunOf } from '../src/harness/spec.js';
import type { Estimate } from '../src/harness/stats.js';
import type { Unit } from '../src/harness/table.js';
import { checkOutDir, count, parseFlags, runCommand, seed, writeWhole } from './command.js';

export const REFERENCE = 'heuristic';
/** The ladder, weakest first: `random` and `oracle` are its two ends. */
export const BOTS = ['random', 'montecarlo', 'pimc', 'ismcts', 'oracle'] as const;

export interface Options {
  game: string;
  seats?: number;
  deals: number;
  matches: number;
  seed: string;
  bots?: readonly string[];
}

export interface Rung {
  bot: string;
  cheats: boolean;
  /** Paired difference per deal (bot - heuristic), positive = better for the bot. */
  deal: Estimate;
  /** The same for the game's other deal metrics, in their order. */
  dealOthers: { metric: string; estimate: Estimate }[];
  /** Paired difference per match, positive = better; null without matches. */
  match: Estimate | null;
  /** The bot's own match win rate, when the game has a binary "won" match metric. */
  winRate: Estimate | null;
  /** Mean milliseconds per decision, and decisions timed. */
  msPerMove: number;
  moves: number;
  /** Share of the random-to-oracle gap closed, with an approximate interval. */
  gap: Estimate | null;
}

/** Wrap a spec so that its `act` calls are timed into `clock`. */
function timed(spec: BotSpec, clock: { ms: number; moves: number }): BotSpec {
  return {
    ...spec,
    create(ctx) {
      const bot = spec.create(ctx);
      return {
        act(obs, legal, count) {
          const t = performance.now();
          const move = bot.act(obs, legal, count);
          clock.ms += performance.now() - t;
          clock.moves++;
          return move;
        },
      };
    },
  };
}

function orient(e: Estimate, higherIsBetter: boolean): Estimate {
  return higherIsBetter ? e : { n: e.n, mean: -e.mean, sd: e.sd, low: -e.high, high: -e.low };
}

interface Played {
  diff: Estimate;
  others: { metric: string; estimate: Estimate }[];
  winRate: Estimate | null;
}

async function play(
  game: Game,
  seats: number,
  bot: string,
  unit: Unit,
  groups: number,
  seed: string,
  clock: { ms: number; moves: number },
): Promise<Played> {
  const table = { seats, rules: resolveParams(game.variants, {}, 'experiment') };
  game.checkTable(table);
  const base: Lineup = await resolveLineup(`${bot},${REFERENCE}`, game, seats);
  const lineup: Lineup = {
    ...base,
    entrants: base.entrants.map((e, i) => (i === 0 ? { ...e, spec: timed(e.spec, clock) } : e)),
  };
  const r = runTournament(liveRunOf({ game, table, lineup, seed, unit, groups }));
  if (r.failure) throw new TafelError('bot-failed', `${bot} vs ${REFERENCE}: ${r.failure.message}`);
  const section = unit === 'match' ? r.tally.match! : r.tally.deal;
  const metrics = unit === 'match' ? game.matchMetrics : game.dealMetrics;
  const headline = metrics[0];
  const pairOf = (key: string) => section.pairRows().find((p) => p.bot === 0 && p.opponent === 1 && p.metric === key);
  const pair = pairOf(headline.key)!;
  const others: { metric: string; estimate: Estimate }[] = [];
  for (const m of metrics.slice(1)) {
    const p = pairOf(m.key);
    if (p) others.push({ metric: m.key, estimate: orient(p.estimate, m.higherIsBetter) });
  }
  const won = metrics.find((m) => m.key === 'won');
  const winRate = won ? (section.botRows().find((b) => b.bot === 0 && b.metric === 'won')?.rate ?? null) : null;
  return { diff: orient(pair.estimate, headline.higherIsBetter), others, winRate };
}

function gameNamed(name: string): Game {
  const game = findGame(name);
  if (!game)
    throw new TafelError('unknown-game', `unknown game '${name}' (known: ${GAMES.map((g) => g.name).join(', ')})`);
  return game;
}

export async function runExperiment(o: Options): Promise<Rung[]> {
  const game = gameNamed(o.game);
  const seats = o.seats ?? game.defaultSeats;
  const rungs: Rung[] = [];
  for (const bot of o.bots ?? BOTS) {
    const clock = { ms: 0, moves: 0 };
    const deal = await play(game, seats, bot, 'deal', o.deals, o.seed, clock);
    const match = o.matches > 0 ? await play(game, seats, bot, 'match', o.matches, o.seed, clock) : null;
    const lineup = await resolveLineup(bot, game, seats);
    rungs.push({
      bot,
      cheats: lineup.entrants[0].spec.cheats === true,
      deal: deal.diff,
      dealOthers: deal.others,
      match: match?.diff ?? null,
      winRate: match?.winRate ?? null,
      msPerMove: clock.moves > 0 ? clock.ms / clock.moves : NaN,
      moves: clock.moves,
      gap: null,
    });
  }
  const low = rungs.find((r) => r.bot === 'random');
  const high = rungs.find((r) => r.bot.startsWith('oracle'));
  if (low && high) {
    const span = high.deal.mean - low.deal.mean;
    const se = (e: Estimate) => (e.high - e.low) / 2 / 1.96;
    for (const r of rungs) {
      const share = (r.deal.mean - low.deal.mean) / span;
      // Delta method for (x - a) / (b - a), the three estimates taken as independent.
      const dx = 1 / span;
      const da = (r.deal.mean - high.deal.mean) / (span * span);
      const db = -(r.deal.mean - low.deal.mean) / (span * span);
      const v =
        r === low || r === high ? 0 : (dx * se(r.deal)) ** 2 + (da * se(low.deal)) ** 2 + (db * se(high.deal)) ** 2;
      const half = 1.96 * Math.sqrt(v);
      r.gap = { n: r.deal.n, mean: share, sd: Math.sqrt(v), low: share - half, high: share + half };
    }
  }
  return rungs;
}

const COLUMNS = ['game', 'seats', 'bot', 'cheats', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

export function csvRows(
  o: Options,
  seats: number,
  rungs: readonly Rung[],
): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const rows: Record<(typeof COLUMNS)[number], string | number>[] = [];
  const add = (r: Rung, quantity: string, e: Estimate | null) => {
    if (e)
      rows.push({
        game: o.game,
        seats,
        bot: r.bot,
        cheats: r.cheats ? 1 : 0,
        quantity,
        n: e.n,
        mean: fix(e.mean),
        ci95_low: fix(e.low),
        ci95_high: fix(e.high),
      });
  };
  for (const r of rungs) {
    add(r, 'deal_vs_heuristic', r.deal);
    for (const o of r.dealOthers) add(r, `deal_vs_heuristic:${o.metric}`, o.estimate);
    add(r, 'match_vs_heuristic', r.match);
    add(r, 'match_win_rate', r.winRate);
    add(r, 'gap_share', r.gap);
    rows.push({
      game: o.game,
      seats,
      bot: r.bot,
      cheats: r.cheats ? 1 : 0,
      quantity: 'ms_per_move',
      n: r.moves,
      mean: fix(r.msPerMove),
      ci95_low: '',
      ci95_high: '',
    });
  }
  return rows;
}

export function report(o: Options, seats: number, rungs: readonly Rung[], seconds: number, command: string): string {
  const game = findGame(o.game)!;
  const show = (e: Estimate | null, digits = 2) =>
    e === null ? '-' : `${e.mean.toFixed(digits)} [${e.low.toFixed(digits)}, ${e.high.toFixed(digits)}]`;
  const pct = (e: Estimate | null) =>
    e === null ? '-' : `${(e.mean * 100).toFixed(0)}% [${(e.low * 100).toFixed(0)}, ${(e.high * 100).toFixed(0)}]`;
  const verdict = (e: Estimate) => (e.low > 0 ? 'yes' : e.high < 0 ? 'no, worse' : 'not shown');
  const headline = game.dealMetrics[0];
  const matchHeadline = game.matchMetrics[0];
  return (
    [
      `# Strength ladder: ${o.game} (${seats} players)`,
      '',
      `Each bot against \`${REFERENCE}\` on ${o.deals} duplicate deal groups and ${o.matches} duplicate match groups, seed \`${o.seed}\`.`,
      `Produced by \`${command}\` in ${seconds.toFixed(0)} s on one core; regenerate it with that command rather than editing it.`,
      `Deal score: paired difference per deal in \`${headline.key}\` (${headline.description}), bot minus heuristic,`,
      `${headline.higherIsBetter ? '' : 'sign flipped so that '}positive is better; match score: the same for \`${matchHeadline.key}\`. 95% intervals in brackets.`,
      '',
      '| bot | deal score vs heuristic | beats heuristic (95%) | match score vs heuristic | match win rate | ms per move | share of the random-oracle gap |',
      '|---|---|---|---|---|---|---|',
      ...rungs.map(
        (r) =>
          `| ${r.bot}${r.cheats ? ' (cheats)' : ''} | ${show(r.deal)} | ${verdict(r.deal)} | ${show(r.match)} | ${pct(r.winRate)} | ${r.msPerMove.toFixed(2)} | ${pct(r.gap)} |`,
      ),
      '',
      ...otherTable(game, rungs, show),
      '`heuristic` itself scores 0 by definition. The gap share puts random at 0% and the oracle (which sees every hand',
      'and plays the best move under its model) at 100%; its interval ignores the correlation of the estimates (they share the deals).',
      "Time per move is the wall time of the bot's decisions, forced ones included, on one core of this machine.",
    ].join('\n') + '\n'
  );
}

/** The other deal metrics' paired differences, one column each (none: no lines). */
function otherTable(
  game: Game,
  rungs: readonly Rung[],
  show: (e: Estimate | null, digits?: number) => string,
): string[] {
  const keys = rungs[0]?.dealOthers.map((o) => o.metric) ?? [];
  if (keys.length === 0) return [];
  const desc = (k: string) => game.dealMetrics.find((m) => m.key === k)!;
  return [
    'Other deal metrics, paired difference per deal against heuristic, oriented so that positive is better for the bot:',
    keys.map((k) => `\`${k}\` (${desc(k).description})`).join('; ') + '.',
    '',
    `| bot | ${keys.join(' | ')} |`,
    `|---|${keys.map(() => '---|').join('')}`,
    ...rungs.map(
      (r) => `| ${r.bot}${r.cheats ? ' (cheats)' : ''} | ${r.dealOthers.map((o) => show(o.estimate, 3)).join(' | ')} |`,
    ),
    '',
  ];
}

const USAGE = `usage: node dist/experiments/ladder.js [--game G] [--players N] [--deals N] [--matches M] [--seed S] [--bots a,b,...] [--out-dir DIR] [--force]
  --game G       viersche (default), hindersche, hindersi-jass or vier-anderle
  --players N    seats at the table (default: the game's)
  --deals N      duplicate deal groups per bot (default 200)
  --matches M    duplicate match groups per bot (default 10; 0 leaves matches out)
  --seed S       master seed (default ladder-1)
  --bots a,b,... the bots to rank against heuristic (default ${BOTS.join(',')}), with parameters as in tafel run
  --out-dir DIR  where ladder-<game>.csv and .md go (default results)`;

async function main(argv: string[]): Promise<void> {
  const v = parseFlags(argv, {
    game: { type: 'string' },
    players: { type: 'string' },
    deals: { type: 'string' },
    matches: { type: 'string' },
    seed: { type: 'string' },
    bots: { type: 'string' },
    'out-dir': { type: 'string' },
  });
  const o: Options = {
    game: String(v.game ?? 'viersche'),
    seats: v.players === undefined ? undefined : count(v.players, 0, '--players', 1),
    deals: count(v.deals, 200, '--deals', 1),
    matches: count(v.matches, 10, '--matches', 0),
    seed: seed(v.seed, 'ladder-1'),
    bots: v.bots === undefined ? undefined : String(v.bots).split(','),
  };
  const game = gameNamed(o.game);
  const seats = o.seats ?? game.defaultSeats;
  if (seats < game.minSeats || seats > game.maxSeats) {
    const range = game.minSeats === game.maxSeats ? `exactly ${game.minSeats}` : `${game.minSeats} to ${game.maxSeats}`;
    throw new TafelError('bad-table', `--players ${seats}: ${game.name} is played by ${range} players`);
  }
  // Every bot name is checked, and the output directory probed, before the first deal.
  for (const bot of o.bots ?? BOTS) await resolveLineup(bot, game, seats);
  const dir = String(v['out-dir'] ?? 'results');
  checkOutDir(dir, [`ladder-${o.game}.csv`, `ladder-${o.game}.md`], v.force === true);
  const command = `node dist/experiments/ladder.js ${argv.join(' ')}`.trim();
  const started = performance.now();
  const rungs = await runExperiment(o);
  const seconds = (performance.now() - started) / 1000;
  const name = `ladder-${o.game}`;
  writeWhole(dir, `${name}.csv`, stringify(csvRows(o, seats, rungs), { header: true, columns: [...COLUMNS] }));
  const text = report(o, seats, rungs, seconds, command);
  writeWhole(dir, `${name}.md`, text);
  process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCommand('ladder', USAGE, main);
