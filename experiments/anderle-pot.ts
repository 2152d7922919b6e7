/**
 * Experiment: how does the Vier-Anderle pot grow, and how far do balances spread over
 * a session? (issue 5)
 *
 * Sessions of `hands` hands (RULES.md A-8) are played at tables of one bot at every
 * seat, for several numbers of players, through the harness's `Table` with a record
 * sink; everything is read from the deal records (RECORD.md: `after.pot`,
 * `after.balances`). Per table it reports the mean pot after each hand, and per
 * session the spread of the final balances (standard deviation over the seats, and
 * the range from the best to the worst seat), each with a Student-t 95% interval over
 * sessions (sessions are independent; hands within one are not, so the pot's interval
 * is over sessions too). Every table uses the same master seed, so session g is dealt
 * the same cards at every table with the same number of players.
 *
 *   npx tsc -p tsconfig.json
 *   node dist/experiments/anderle-pot.js [--sessions N] [--hands H] [--seed S] [--out-dir DIR] [--force]
 */
import { pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { liveRunOf } from '../src/harness/spec.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { resolveLineup } from '../src/harness/lineup.js';
import { Moments, type Estimate } from '../src/harness/stats.js';
import { GroupTally, Table } from '../src/harness/table.js';
import { checkOutDir, count, parseFlags, runCommand, seed, writeWhole } from './command.js';

export const NAME = 'anderle-pot';
export const PLAYERS = [2, 3, 4, 6, 9, 13] as const;
export const BOTS = ['random', 'heuristic', 'montecarlo:worlds=8'] as const;
/** Monte Carlo is slow with many seats: its tables stop here. */
const SEARCH_MAX_PLAYERS = 6;

export interface Options {
  sessions: number;
  hands: number;
  seed: string;
  players?: readonly number[];
  bots?: readonly string[];
}

export interface TableResult {
  bot: string;
  players: number;
  sessions: number;
  /** pot[h]: the pot after hand h (0-based), over sessions. */
  pot: Estimate[];
  /** Standard deviation of the final balances over the seats, per session. */
  balanceSd: Estimate;
  /** Best minus worst final balance, per session. */
  balanceRange: Estimate;
  /** Sessions that ended with an empty pot. */
  emptyAtEnd: number;
}

interface Ledger {
  pot: number;
  balances: number[];
}

export async function runExperiment(o: Options): Promise<TableResult[]> {
  const game = findGame('vier-anderle')!;
  const results: TableResult[] = [];
  for (const bot of o.bots ?? BOTS) {
    for (const players of o.players ?? PLAYERS) {
      if (bot.startsWith('montecarlo') && players > SEARCH_MAX_PLAYERS) continue;
      const table = { seats: players, rules: resolveParams(game.variants, { hands: String(o.hands) }, 'experiment') };
      game.checkTable(table);
      const lineup = await resolveLineup(bot, game, players);
      const pots = Array.from({ length: o.hands }, () => new Moments());
      const sd = new Moments();
      const range = new Moments();
      let emptyAtEnd = 0;
      let last: Ledger | null;
      const sink = (r: Record<string, unknown>) => {
        const after = r.after as Ledger;
        const hand = r.deal as number;
        // Play on "until the pot is empty" is off, so hands are 0..hands-1.
        if (hand < o.hands) pots[hand].add(after.pot);
        last = after;
      };
      const player = new Table(
        liveRunOf({ game, table, lineup, seed: o.seed, unit: 'match', groups: o.sessions }),
        sink,
      );
      const tally = new GroupTally(lineup.entrants.length, game.dealMetrics.length, game.matchMetrics.length);
      for (let g = 0; g < o.sessions; g++) {
        tally.clear();
        last = null;
        player.playGroup(g, tally);
        const end = last as Ledger | null;
        if (!end) throw new Error(`session ${g}: no hand was recorded`);
        const mean = end.balances.reduce((a, b) => a + b, 0) / players;
        sd.add(Math.sqrt(end.balances.reduce((a, b) => a + (b - mean) ** 2, 0) / players));
        range.add(Math.max(...end.balances) - Math.min(...end.balances));
        if (end.pot === 0) emptyAtEnd++;
      }
      results.push({
        bot,
        players,
        sessions: o.sessions,
        pot: pots.map((m) => m.estimate()),
        balanceSd: sd.estimate(),
        balanceRange: range.estimate(),
        emptyAtEnd,
      });
    }
  }
  return results;
}

const COLUMNS = ['bot', 'players', 'quantity', 'hand', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

export function csvRows(results: readonly TableResult[]): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const row = (r: TableResult, quantity: string, hand: number | '', e: Estimate) => ({
    bot: r.bot,
    players: r.players,
    quantity,
    hand,
    n: e.n,
    mean: fix(e.mean),
    ci95_low: fix(e.low),
    ci95_high: fix(e.high),
  });
  return results.flatMap((r) => [
    ...r.pot.map((e, h) => row(r, 'pot', h + 1, e)),
    row(r, 'balance_sd', '', r.balanceSd),
    row(r, 'balance_range', '', r.balanceRange),
  ]);
}

export function report(results: readonly TableResult[], o: Options, seconds: number): string {
  const half = (e: Estimate) => (Number.isFinite(e.high) ? ` ± ${((e.high - e.low) / 2).toFixed(1)}` : '');
  const show = (e: Estimate) => `${e.mean.toFixed(1)}${half(e)}`;
  const marks = [0, Math.floor(o.hands / 4), Math.floor(o.hands / 2), o.hands - 1].filter(
    (h, i, a) => a.indexOf(h) === i,
  );
  const lines = [
    '# How the Vier-Anderle pot grows, and how balances spread',
    '',
    `Sessions of ${o.hands} hands (RULES.md A-8), ${o.sessions} sessions per table, one bot at every seat, seed \`${o.seed}\`.`,
    `Produced by \`node dist/experiments/anderle-pot.js --sessions ${o.sessions} --hands ${o.hands} --seed ${o.seed}\` in ${seconds.toFixed(0)} s;`,
    'regenerate it with that command rather than editing it. Means with Student-t 95% intervals over sessions (stakes).',
    '',
    `| bot | players | ${marks.map((h) => `pot after hand ${h + 1}`).join(' | ')} | balance sd at end | best - worst at end | pot empty at end |`,
    `|---|---|${marks.map(() => '---|').join('')}---|---|---|`,
    ...results.map(
      (r) =>
        `| ${r.bot} | ${r.players} | ${marks.map((h) => show(r.pot[h])).join(' | ')} | ${show(r.balanceSd)} | ${show(r.balanceRange)} | ${((r.emptyAtEnd / r.sessions) * 100).toFixed(1)}% |`,
    ),
    '',
    'Reading it: the first hand is always played from an empty pot (A-5), so the pot after it is 4 plus 4 for every',
    'player who took no trick; from then on the dealer adds 4 and players who declare in and take no trick pay in a',
    'quarter-pot each (A-6), while tricks pay quarters out. The spread of balances is what a session costs the unlucky',
    'or reckless: compare the bots at the same table size.',
  ];
  return lines.join('\n') + '\n';
}

const USAGE = `usage: node dist/experiments/${NAME}.js [--sessions N] [--hands H] [--seed S] [--out-dir DIR] [--force]
  --sessions N   sessions per table (default 400)
  --hands H      hands per session (default 12)
  --seed S       master seed (default pot-1)
  --out-dir DIR  where ${NAME}.csv and .md go (default results)`;

async function main(argv: string[]): Promise<void> {
  const v = parseFlags(argv, {
    sessions: { type: 'string' },
    hands: { type: 'string' },
    seed: { type: 'string' },
    'out-dir': { type: 'string' },
  });
  const o: Options = {
    sessions: count(v.sessions, 400, '--sessions', 1),
    hands: count(v.hands, 12, '--hands', 1),
    seed: seed(v.seed, 'pot-1'),
  };
  const dir = String(v['out-dir'] ?? 'results');
  checkOutDir(dir, [`${NAME}.csv`, `${NAME}.md`], v.force === true);
  const started = performance.now();
  const results = await runExperiment(o);
  const seconds = (performance.now() - started) / 1000;
  writeWhole(dir, `${NAME}.csv`, stringify(csvRows(results), { header: true, columns: [...COLUMNS] }));
  const text = report(results, o, seconds);
  writeWhole(dir, `${NAME}.md`, text);
  process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCommand(NAME, USAGE, main);
