#!/usr/bin/env node
/**
 * The `tafel` command. The only module that reads argv, the environment and paths;
 * it turns them into harness calls and turns user errors into one line and a
 * non-zero exit (2 for bad input, 3 for a bot that failed during play).
 */
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { TafelError } from '../core/errors.js';
import { GAME_LISTINGS, gameNames } from '../games/listings.js';
import { describeParams } from '../games/params.js';
// The commands' own modules (the games' engines and the bots, a run's workers, DuckDB,
// merging, benchmarks, replay, the experiments, the web server) are imported by their
// actions when they run, so that every command starts without loading them
// (bench/README.md, "Start-up"): help and `tafel games` read the games' listings.
import { VERSION } from '../harness/run/version.js';
import type { Unit } from '../harness/table/table.js';
import { addProgram, finiteNumber, integer, nonNegativeInt, positiveInt, shareOf, seedText } from './common.js';
import type { BotFlags } from './bot.js';
import type { EnvFlags } from './env.js';
import type { MergeFlags } from './merge.js';
import type { QueryFlags } from './query.js';
import type { ReportFlags } from './report.js';
import { addExperimentCommand } from './experiment.js';
import { addPlayCommand } from './play.js';
import { addServeCommand } from './serve.js';
import type { RunFlags } from './run.js';
import type { TuneFlags } from './tune.js';

// Only the command that the command line names is defined: defining every command's
// options is a part of every command's start worth saving (bench/README.md, "Start-up").
// Help, an unknown command or none (`tafel --help`, `tafel help run`, `tafel x`) define all.
const COMMANDS = [
  'run',
  'tune',
  'merge',
  'query',
  'report',
  'bench',
  'replay',
  'play',
  'serve',
  'experiment',
  'games',
  'bot',
  'env',
  'bots',
] as const;
const named = COMMANDS.find((c) => c === process.argv[2]);

function defines(name: (typeof COMMANDS)[number]): boolean {
  return named === undefined || named === name;
}

/** `program.command(name)`, or undefined (and the chain on it skipped) when another command is named. */
function command(name: (typeof COMMANDS)[number]): Command | undefined {
  return defines(name) ? program.command(name) : undefined;
}

/** Positions `bench --solve` solves without --deals. */
const SOLVE_DEALS = 50;

const program = new Command('tafel')
  .description('Simulation and bot tournaments for the trick-taking games of the Black Forest')
  .version(VERSION, '-V, --version', 'print the version of tafel')
  .exitOverride()
  // One line per error, with the prefix of tafel's own errors (not commander's `error:`);
  // commander's hint ("Did you mean --bots?") joins the message.
  .configureOutput({
    outputError: (text, write) =>
      write(
        text
          .trim()
          .replace(/^error: /, 'tafel: ')
          .replace(/\s*\n\s*/g, ' ') + ' (see --help)\n',
      ),
  });

command('run')
  ?.description('play a duplicate tournament between bots and report the results')
  .option('--game <name>', 'the game: ' + gameNames())
  .option(
    '--bots <list>',
    'bots by seat, e.g. heuristic,random or ./my-bot.js (or .ts), or a --program name; name:key=value sets a parameter; label=bot names a bot in the tables',
  )
  .option(
    '--program <name=command>',
    'a bot program (PROTOCOL.md) that --bots may name, e.g. py="python3 my_bot.py"; repeatable',
    addProgram,
  )
  .addOption(
    new Option(
      '--deals <n>',
      'number of duplicate deals (each played in every seat rotation); without --deals or --matches, 1000 deals',
    )
      .argParser(positiveInt('--deals'))
      .conflicts('matches'),
  )
  .addOption(new Option('--matches <n>', 'number of duplicate whole matches').argParser(positiveInt('--matches')))
  .option(
    '--boards <file.jsonl>',
    'play these chosen deals, one group each (docs/boards.md); with --deals/--matches n, the first n',
  )
  .option('--seed <seed>', 'master seed: the same seed replays the same run', seedText, '1')
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
  .option('--out <file.csv>', 'write the summary as CSV (and the journal to file.journal.jsonl)')
  .option('--records <file.jsonl>', 'write every deal as a RECORD.md deal record')
  .option('--deal-csv <file.csv>', 'write one CSV row per seat and deal, with the deal metrics')
  .option(
    '--db <file.duckdb>',
    'write every deal, seat and match as DuckDB tables (deals, seats, matches; ask them with tafel query)',
  )
  .option('--journal <file.jsonl>', 'write the journal (what --resume and merge read) here')
  .option(
    '--report <file.html>',
    'write a report page with plots of the results (as tafel report draws from the journal)',
  )
  .option('--resume <file.jsonl>', 'continue the run of this journal (interrupted, or stopped by a bot failure)')
  .option('--force', 'replace output files that exist (without it, a run refuses to overwrite them)')
  .option('--shard <i/n>', 'play only part i of n of the run (i from 0); tafel merge joins the parts')
  .option('--workers <n>', 'worker threads', positiveInt('--workers'), availableParallelism())
  .option('--move-timeout <ms>', 'a bot move taking longer than this fails', positiveInt('--move-timeout'))
  .option(
    '--time-control <base+inc>',
    "bot programs' clocks in seconds, per deal or match: 2+0.05, 60+1/match; a program out of time forfeits",
  )
  .option(
    '--sprt <spec>',
    'stop a two-bot run once the test decides: elo0=0,elo1=5[,alpha=0.05,beta=0.05] or mean0=0,mean1=2[,...] (paired per group, headline metric)',
  )
  .addOption(
    new Option(
      '--on-bot-error <mode>',
      'when a bot throws, times out or plays an illegal move: stop the run, or skip (drop) that group',
    ).choices(['stop', 'skip']),
  )
  .option(
    '--max-fault-share <share>',
    'with --on-bot-error skip: withdraw a bot (stop the run, results so far kept) once it failed in 3 groups or more and in more than this share of the groups so far; 1 never does',
    shareOf('--max-fault-share'),
    0.1,
  )
  .action(async (o: RunFlags, cmd: Command) => {
    const { runCommand } = await import('./run.js');
    await runCommand(o, (name) => cmd.getOptionValueSource(name) === 'cli');
  });

command('tune')
  ?.description(
    "tune a bot's numeric parameters by SPSA on duplicate deals (theta+ against theta-), then verify the tuned values against the start on fresh deals",
  )
  .option('--game <name>', 'the game: ' + gameNames())
  .option('--bot <spec>', 'the bot to tune at its start point, e.g. heuristic:aggression=1:cash=0.1')
  .option(
    '--program <name=command>',
    'a bot program (PROTOCOL.md) that --bot or --against may name, e.g. py="python3 my_bot.py"; repeatable',
    addProgram,
  )
  .option(
    '--tune <list>',
    "the parameters to tune, e.g. aggression,cash; key:c=0.05:r=0.002:min=0:max=1 sets its step and learning rate at the end (c_end, r_end) and narrows its bounds (default: c_end = range/20, r_end = 0.5/sqrt(iterations x pairs), the bot's bounds)",
  )
  .option('--iterations <n>', 'SPSA iterations', positiveInt('--iterations'))
  .option(
    '--pairs <n>',
    'duplicate groups (deals with every seat rotation) an iteration (default 8)',
    positiveInt('--pairs'),
  )
  .option('--seed <seed>', 'master seed: the same seed tunes the same way (default 1)', seedText)
  .option('--against <spec>', 'theta+ and theta- each play this bot (on the same deals) instead of each other')
  .addOption(
    new Option('--unit <unit>', 'groups of single deals (default) or of whole matches').choices(['deal', 'match']),
  )
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
  .option('--alpha <x>', 'decay exponent of the learning rate (default 0.602)', finiteNumber('--alpha'))
  .option('--gamma <x>', 'decay exponent of the perturbation (default 0.101)', finiteNumber('--gamma'))
  .option(
    '--a-ratio <x>',
    'the stability constant A as a fraction of the iterations (default 0.1)',
    finiteNumber('--a-ratio'),
  )
  .option(
    '--verify <m>',
    'then play the tuned values against the start on m fresh duplicate groups',
    positiveInt('--verify'),
  )
  .option('--boards <file.jsonl>', 'verify on these chosen deals (docs/boards.md), the first m with --verify m')
  .option(
    '--sprt <spec>',
    `verify by the SPRT of run instead (elo0=0,elo1=5 or mean0=0,mean1=2; on at most --verify groups, default 10000)`,
  )
  .option('--out <file.csv>', 'write one row per iteration (and the journal, and the verification run, beside it)')
  .option('--db <file.duckdb>', "write the verification run's deals as DuckDB tables (ask them with tafel query)")
  .option(
    '--report <file.html>',
    "write a report page of the tuning (each parameter's path, the results, the verification), as tafel report draws it from the journal",
  )
  .option('--force', 'replace output files that exist')
  .option('--resume <file.jsonl>', 'continue the tuning of this journal')
  .option('--workers <n>', 'worker threads', positiveInt('--workers'), availableParallelism())
  .option('--move-timeout <ms>', 'a bot move taking longer than this fails', positiveInt('--move-timeout'))
  .action(async (o: TuneFlags, cmd: Command) => {
    const { tuneCommand } = await import('./tune.js');
    await tuneCommand(o, (name) => cmd.getOptionValueSource(name) === 'cli');
  });

command('merge')
  ?.description('merge the journals of the shards of one run into the results of the whole run')
  .argument('<journals...>', 'the journal of every shard (any order)')
  .option('--out <file.csv>', 'write the summary as CSV (and the merged journal to file.journal.jsonl)')
  .option('--journal <file.jsonl>', 'write the merged journal here')
  .option('--records <file.jsonl>', "join the shards' deal records into this file (as one machine writes them)")
  .option('--deal-csv <file.csv>', "join the shards' per-deal CSVs into this file")
  .option('--db <file.duckdb>', "join the shards' databases into this one")
  .option('--force', 'replace output files that exist')
  .action(async (journals: string[], o: MergeFlags) => {
    const { mergeCommand } = await import('./merge.js');
    await mergeCommand(journals, o);
  });

command('query')
  ?.description(
    'ask run databases (--db) a question in SQL; the tables of several files are read as one; macros wilson(k, n), cluster_mean(x), cluster_rate(k, n) give 95% intervals',
  )
  .argument('<files-and-sql...>', 'one or more .duckdb files, then the SQL')
  .option('--csv', 'print the result as CSV')
  .option('--json', 'print the result as a JSON array of rows')
  .option(
    '--parquet <dir-or-file.parquet>',
    'write every table as DIR/<table>.parquet (with a README.md), or, given SQL, its result as FILE.parquet',
  )
  .option('--force', 'replace the Parquet files if they exist')
  .action(async (args: string[], o: QueryFlags) => {
    if (o.csv && o.json) throw new TafelError('bad-option', 'query: give --csv or --json, not both');
    if (o.parquet !== undefined) {
      const { queryParquet } = await import('./query.js');
      return queryParquet(args, { ...o, parquet: o.parquet });
    }
    if (args.length < 2) throw new TafelError('missing-option', 'query: give one or more database files, then the SQL');
    const { csvText, jsonText, runQueries, tableText } = await import('../harness/db/query.js');
    const results = await runQueries(args.slice(0, -1), args[args.length - 1]);
    if (results.length > 1 && (o.csv || o.json))
      throw new TafelError(
        'bad-option',
        `query: --${o.csv ? 'csv' : 'json'} prints one result, but the SQL has ${results.length} statements: give one`,
      );
    const text = o.csv ? csvText : o.json ? jsonText : tableText;
    process.stdout.write(results.map(text).join('\n'));
  });

command('report')
  ?.description('draw one self-contained HTML page with plots from what runs and experiments leave')
  .argument(
    '<inputs...>',
    "journals (the shards of one run are merged), run databases (--db), summary CSVs, per-deal CSVs, experiments' results CSVs",
  )
  .requiredOption('--out <file.html>', 'the page to write')
  .option('--title <text>', 'the heading of the page (default: the title of the first input)')
  .option('--force', 'replace the page if it exists')
  .action(async (inputs: string[], o: ReportFlags) => {
    const { reportCommand } = await import('./report.js');
    await reportCommand(inputs, o);
  });

interface BenchFlags {
  game: string;
  bots: string;
  deals: number;
  workers: number;
  seed: string;
  rules?: string;
  players?: number;
  yardstick?: string;
  solve?: boolean;
  fromTrick?: number;
  nodeLimit?: number;
  verbose?: boolean;
  passes?: number;
  endgame: boolean;
}

command('bench')
  ?.description(
    'measure raw play throughput (random bots through the real engine by default), or with --solve the exact solver',
  )
  .requiredOption('--game <name>', 'the game')
  .option('--bots <list>', 'bots by seat', 'random')
  .option(
    '--deals <n>',
    `deals to play (with --solve: positions to solve, default ${SOLVE_DEALS})`,
    positiveInt('--deals'),
    1_000_000,
  )
  .option('--workers <n>', 'worker threads', positiveInt('--workers'), 1)
  .option('--seed <seed>', 'master seed', seedText, 'bench')
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--players <n>', 'number of seats', positiveInt('--players'))
  .option(
    '--yardstick <playout.c>',
    'also run the C yardstick (../shared/bench-ref/playout.c) before and after, and print the ratio',
  )
  .option('--solve', 'time the exact solver on seeded positions (one thread) instead of playing deals')
  .option(
    '--from-trick <k>',
    'with --solve: solve after k tricks of random play (default 0: whole deals)',
    integer('--from-trick'),
  )
  .option(
    '--node-limit <n>',
    'with --solve: abandon a position after n nodes (reported as aborted)',
    positiveInt('--node-limit'),
  )
  .option('--verbose', 'with --solve: print a line per position')
  .option(
    '--passes <n>',
    'with --solve: solve every position n times, pass after pass, and time each by its fastest (default 1)',
    positiveInt('--passes'),
  )
  .option(
    '--no-endgame',
    "with --solve: search the last tricks through the game contract too, not by the game's own endgame search (State.endgame): the solver as it was before, to compare",
  )
  .action(async (o: BenchFlags, cmd: Command) => {
    const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
    if (o.solve) {
      for (const [name, flag] of [
        ['bots', '--bots'],
        ['workers', '--workers'],
        ['yardstick', '--yardstick'],
      ] as const) {
        if (given(name))
          throw new TafelError(
            'bad-option',
            `bench --solve runs the solver alone on one thread: ${flag} does not apply`,
          );
      }
    } else {
      for (const [name, flag] of [
        ['fromTrick', '--from-trick'],
        ['nodeLimit', '--node-limit'],
        ['verbose', '--verbose'],
        ['passes', '--passes'],
        ['endgame', '--no-endgame'],
      ] as const) {
        if (given(name)) throw new TafelError('bad-option', `${flag} goes with bench --solve`);
      }
    }
    const { gameNamed, tableFor } = await import('../harness/run/parts.js');
    const game = gameNamed(o.game);
    const table = tableFor(game, o.players, o.rules);
    if (o.solve) {
      const { positionLine, solveBench, summaryLines } = await import('../../bench/solve-bench.js');
      const r = solveBench(game, table, {
        seed: o.seed,
        deals: given('deals') ? o.deals : SOLVE_DEALS,
        fromTrick: o.fromTrick ?? 0,
        nodeLimit: o.nodeLimit ?? Infinity,
        endgame: o.endgame,
        passes: o.passes,
        onStart: (head) => process.stdout.write(head + '\n'),
        onPosition: o.verbose ? (p) => process.stdout.write(positionLine(p) + '\n') : undefined,
      });
      process.stdout.write(summaryLines(r).join('\n') + '\n');
      return;
    }
    const { resolveLineup } = await import('../harness/table/lineup.js');
    const { liveRunOf } = await import('../harness/run/spec.js');
    const lineup = await resolveLineup(o.bots, game, table.seats);
    const run = liveRunOf({
      game,
      table,
      lineup,
      seed: o.seed,
      unit: 'deal',
      groups: Math.ceil(o.deals / lineup.rotations),
    });
    const { benchDeals } = await import('../../bench/throughput.js');
    const { runYardstick } = await import('../../bench/yardstick.js');
    const before = o.yardstick ? runYardstick(o.yardstick, Math.max(o.deals, 10_000_000)) : null;
    const r = await benchDeals(run.spec, o.workers);
    const after = o.yardstick ? runYardstick(o.yardstick, Math.max(o.deals, 10_000_000)) : null;
    const threads = o.workers === 1 ? '1 thread' : `${o.workers} worker threads`;
    const out = [
      `bench: ${game.name}, bots ${o.bots}, ${r.deals} deals, ${threads}, ${r.seconds.toFixed(2)} s`,
      r.gc
        ? `gc: ${r.gc.count} collections during the run (${r.gc.ms.toFixed(1)} ms)`
        : 'gc: not counted with worker threads (count with --workers 1)',
    ];
    if (before && after) {
      const c = (before + after) / 2;
      out.push(
        `yardstick: C ${Math.round(before)} and ${Math.round(after)} deals/s (before, after); tafel/C = ${(r.dealsPerSecond / c).toFixed(3)}`,
      );
    }
    out.push(`throughput: ${Math.round(r.dealsPerSecond)} deals/s`);
    process.stdout.write(out.join('\n') + '\n');
  });

command('replay')
  ?.description('print one deal trick by trick: from a records file, or played again from the seed and the bots')
  .option('--records <file.jsonl>', 'find the deal in this records file')
  .option(
    '--seed <seed>',
    "the run's master seed (default 1, as for run; with --records: only records of this seed)",
    seedText,
  )
  .option(
    '--match <m>',
    'match index in the run (a --deals run: group x rotations + rotation); required unless --board',
    nonNegativeInt('--match'),
  )
  .option('--deal <d>', 'deal index within the match', nonNegativeInt('--deal'), 0)
  .option('--game <name>', 'without --records: the game of the run')
  .option('--bots <list>', 'without --records: the --bots of the run')
  .option('--rules <list>', 'without --records: the --rules of the run')
  .option('--players <n>', 'without --records: the --players of the run', positiveInt('--players'))
  .option('--boards <file.jsonl>', 'without --records: the --boards of the run (docs/boards.md)')
  .option('--board <id>', 'with --boards: the first rotation of this board (its id, or its number from 1)')
  .addOption(
    new Option('--unit <unit>', 'without --records: deal for a --deals run, match for a --matches run')
      .choices(['deal', 'match'])
      .default('deal'),
  )
  .action(
    async (o: {
      records?: string;
      seed?: string;
      match?: number;
      deal: number;
      game?: string;
      bots?: string;
      rules?: string;
      players?: number;
      boards?: string;
      board?: string;
      unit: Unit;
    }) => {
      const { findRecord, regenerateRecord, renderDeal } = await import('../harness/table/replay.js');
      let record;
      if (o.board !== undefined && (o.boards === undefined || o.match !== undefined))
        throw new TafelError('bad-option', 'replay: --board picks a board of --boards, in place of --match');
      if (o.match === undefined && o.board === undefined)
        throw new TafelError(
          'missing-option',
          "required option '--match <m>' not specified (or --board with --boards)",
        );
      if (o.records) {
        if (o.boards !== undefined)
          throw new TafelError('bad-option', 'replay: --boards plays a deal again, without --records');
        record = findRecord(o.records, { seed: o.seed, match: o.match!, deal: o.deal });
      } else {
        if (!o.game || !o.bots)
          throw new TafelError(
            'missing-option',
            'replay: give --records FILE, or --game and --bots (and the --seed, default 1) to play the deal again',
          );
        const { boardGroup, boardSetFor, gameNamed, tableFor } = await import('../harness/run/parts.js');
        const game = gameNamed(o.game);
        const table = tableFor(game, o.players, o.rules);
        const { resolveLineup } = await import('../harness/table/lineup.js');
        const { liveRunOf } = await import('../harness/run/spec.js');
        const lineup = await resolveLineup(o.bots, game, table.seats);
        const seed = o.seed ?? '1';
        const boards = o.boards === undefined ? null : boardSetFor(o.boards, game, table, undefined);
        const match = o.board === undefined ? o.match! : boardGroup(boards!, o.board) * lineup.rotations;
        const groups = boards ? boards.boards.length : match + 1;
        const run = liveRunOf({ game, table, lineup, seed, unit: o.unit, groups, boards });
        if (boards && match >= groups * lineup.rotations)
          throw new TafelError(
            'no-deal',
            `no match ${match}: --boards ${o.boards} holds ${groups} boards, ${groups * lineup.rotations} matches`,
          );
        record = regenerateRecord(run, match, o.deal);
      }
      process.stdout.write(renderDeal(record) + '\n');
    },
  );

if (defines('play')) addPlayCommand(program);
if (defines('serve')) addServeCommand(program);
// The built-in experiments' subcommands only when the command line may name them.
if (defines('experiment')) {
  const experiments = process.argv.includes('experiment')
    ? (await import('../../experiments/index.js')).EXPERIMENTS
    : null;
  addExperimentCommand(program, experiments);
}

command('games')
  ?.description('list the games, their rule variants and the metrics a run reports')
  .option('--json', 'print one JSON document (keys in docs/listing.md)')
  .action(async (o: { json?: boolean }) => {
    if (o.json) {
      const { gamesJson } = await import('./listing.js');
      const { GAMES } = await import('../games/index.js');
      return void process.stdout.write(gamesJson(GAMES));
    }
    for (const g of GAME_LISTINGS) {
      const seats = g.minSeats === g.maxSeats ? `${g.minSeats}` : `${g.minSeats}-${g.maxSeats}`;
      process.stdout.write(`${g.name} (${seats} players): ${g.title}\n`);
      for (const line of describeParams(g.variants)) process.stdout.write(`  --rules ${line}\n`);
      for (const [unit, metrics] of [
        ['deal', g.dealMetrics],
        ['match', g.matchMetrics],
      ] as const) {
        for (const m of metrics) {
          const how = [m.higherIsBetter ? 'higher is better' : 'lower is better', ...(m.binary ? ['a rate'] : [])];
          process.stdout.write(`  metric per ${unit} ${m.key} (${how.join(', ')}): ${m.description}\n`);
        }
      }
    }
  });

command('bot')
  ?.description('serve one bot over the bot protocol on stdin/stdout (PROTOCOL.md), for programs in any language')
  .requiredOption('--game <name>', 'the game: ' + gameNames())
  .requiredOption(
    '--bot <spec>',
    'a built-in bot or a module, with its parameters: heuristic, pimc:worlds=20, ./my-bot.js or ./my-bot.ts',
  )
  .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
  .option('--rules <list>', 'rule variants, key=value,...')
  .action(async (o: BotFlags) => {
    const { botCommand } = await import('./bot.js');
    await botCommand(o);
  });

command('env')
  ?.description(
    "a learning environment on stdin/stdout (env protocol v1, docs/env.md): tafel plays the table and asks for the learning seats' decisions",
  )
  .requiredOption('--game <name>', 'the game: ' + gameNames())
  .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--seat <list>', 'the learning seat (or seats: 0,2); the others are --opponents')
  .option('--all-seats', 'every seat learns (self-play)')
  .option('--opponents <list>', "tafel's bots at the other seats, in seat order, repeated: random, heuristic,pimc")
  .option('--tables <k>', 'tables stepped together, one message each way per step', positiveInt('--tables'), 1)
  .option('--seed <seed>', "master seed: the same seed, the same deals and opponents' answers", seedText, '1')
  .option('--matches', 'an episode is a whole match (rewards in the match metric), not a deal')
  .action(async (o: EnvFlags) => {
    const { envCommand } = await import('./env.js');
    await envCommand(o);
  });

command('bots')
  ?.description("list the built-in bots and their parameters (and bot programs' options)")
  .option('--game <name>', 'only the bots that play this game')
  .option(
    '--program <name=command>',
    'also list this bot program (PROTOCOL.md): the games it plays and its options; repeatable',
    addProgram,
  )
  .option('--json', 'print one JSON document (keys in docs/listing.md)')
  .action(async (o: { game?: string; json?: boolean; program?: Record<string, string> }) => {
    const { gameNamed } = await import('../harness/run/parts.js');
    const { GAMES } = await import('../games/index.js');
    const game = o.game === undefined ? undefined : gameNamed(o.game);
    const { BUILTIN_BOTS } = await import('../../bots/registry.js');
    const { botsFor, botsJson, programListing } = await import('./listing.js');
    const log = join(tmpdir(), `tafel-bots-${process.pid}.log`);
    const programs = Object.entries(o.program ?? {}).map(([name, command]) =>
      programListing(name, command, game ? [game] : GAMES, log),
    );
    const bots = [...botsFor(BUILTIN_BOTS, game), ...programs];
    if (o.json) return void process.stdout.write(botsJson(bots, game));
    for (const b of bots) {
      const games = b.games ? ` [${b.games.join(', ')}]` : ' [every game]';
      process.stdout.write(`${b.name}${games}${b.cheats ? ' (cheats: sees every hand)' : ''}: ${b.description}\n`);
      for (const line of describeParams(b.params)) process.stdout.write(`  ${b.name}:${line}\n`);
    }
  });

// Output piped into `head` and the like: a closed pipe ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof TafelError) {
      process.stderr.write(`tafel: ${e.message}\n`);
      process.exitCode = e.code === 'bot-failed' || e.code === 'bot-withdrawn' ? 3 : 2;
      return;
    }
    const code = (e as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      // Commander has printed its one-line message (or the help) already.
      const ok = code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help';
      process.exitCode = ok ? 0 : 2;
      return;
    }
    throw e;
  }
}

await main();
