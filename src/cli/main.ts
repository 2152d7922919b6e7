#!/usr/bin/env node
/**
 * The `tafel` command. The only module that reads argv, the environment and paths;
 * it turns them into harness calls and turns user errors into one line and a
 * non-zero exit (2 for bad input, 3 for a bot that failed during play).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { TafelError } from '../core/errors.js';
import { GAMES, findGame } from '../games/index.js';
import type { Game, TableConfig } from '../games/game.js';
import { describeParams, parseAssignments, resolveParams } from '../games/params.js';
import { BUILTIN_BOTS } from '../../bots/registry.js';
import { resolveLineup } from '../harness/lineup.js';
import { runTournament } from '../harness/run.js';
import { benchDeals } from '../harness/bench.js';
import { countGc } from '../harness/gc.js';
import { runYardstick } from '../harness/yardstick.js';

function positiveInt(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n <= 0) {
      throw new InvalidArgumentError(`${what} must be a positive whole number`);
    }
    return n;
  };
}

function seedText(text: string): string {
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(text)) {
    throw new InvalidArgumentError('a seed is 1-64 letters, digits or _ . : -');
  }
  return text;
}

function gameNamed(name: string): Game {
  const game = findGame(name);
  if (!game) throw new TafelError('unknown-game', `unknown game '${name}' (known: ${GAMES.map((g) => g.name).join(', ')})`);
  return game;
}

function tableFor(game: Game, players: number | undefined, rulesText: string | undefined): TableConfig {
  const seats = players ?? game.defaultSeats;
  if (seats < game.minSeats || seats > game.maxSeats) {
    const range = game.minSeats === game.maxSeats ? `exactly ${game.minSeats}` : `${game.minSeats} to ${game.maxSeats}`;
    throw new TafelError('bad-table', `${game.name} is played by ${range} players, not ${seats}`);
  }
  const rules = resolveParams(game.variants, parseAssignments(rulesText ?? '', '--rules'), `--rules for ${game.name}`);
  const table = { seats, rules };
  game.checkTable(table);
  return table;
}

const program = new Command('tafel')
  .description('Simulation and bot tournaments for the trick-taking games of the Black Forest')
  .exitOverride()
  // One line per error: commander's hint ("Did you mean --bots?") joins the message.
  .configureOutput({ outputError: (text, write) => write(text.trim().replace(/\s*\n\s*/g, ' ') + ' (see --help)\n') });

program
  .command('run')
  .description('play a duplicate tournament between bots and report the results')
  .requiredOption('--game <name>', 'the game: ' + GAMES.map((g) => g.name).join(', '))
  .requiredOption('--bots <list>', 'bots by seat, e.g. heuristic,random or ./my-bot.js; name:key=value sets a parameter')
  .addOption(new Option('--deals <n>', 'number of duplicate deals (each played in every seat rotation)').argParser(positiveInt('--deals')).conflicts('matches'))
  .addOption(new Option('--matches <n>', 'number of duplicate whole matches').argParser(positiveInt('--matches')))
  .option('--seed <seed>', 'master seed: the same seed replays the same run', seedText, '1')
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
  .option('--out <file.csv>', 'write the summary as CSV')
  .option('--records <file.jsonl>', 'write every deal as a RECORD.md deal record')
  .action(async (o: { game: string; bots: string; deals?: number; matches?: number; seed: string; rules?: string; players?: number; out?: string; records?: string }) => {
    const game = gameNamed(o.game);
    const table = tableFor(game, o.players, o.rules);
    const lineup = await resolveLineup(o.bots, game, table.seats);
    const unit = o.matches ? 'match' : 'deal';
    const groups = o.matches ?? o.deals ?? 1000;
    const result = runTournament({ game, table, lineup, seed: o.seed, unit, groups, out: o.out, records: o.records });
    const played = result.tally.deals;
    const head = `${game.name}: ${result.tally.groups} ${unit === 'deal' ? 'deals' : 'matches'} x ${lineup.rotations} seat rotations (${played} deals played), seed ${o.seed}, ${result.seconds.toFixed(1)} s`;
    const seats = Array.from({ length: table.seats }, (_, s) => lineup.entrants[lineup.base[s]].label).join(', ');
    process.stdout.write(`${head}\nseats in rotation 0: ${seats}\n`);
    if (result.tally.groups > 0) process.stdout.write(`${result.text}\n`);
    if (o.out) process.stdout.write(`\nsummary written to ${o.out}\n`);
    if (o.records) process.stdout.write(`deal records written to ${o.records}\n`);
    if (result.failure) {
      const kept = result.tally.groups ? `the ${result.tally.groups} groups finished before it are reported above` : 'no group had finished';
      throw new TafelError(result.failure.code, `${result.failure.message}; ${kept}`);
    }
  });

program
  .command('bench')
  .description('measure raw play throughput (random bots through the real engine by default)')
  .requiredOption('--game <name>', 'the game')
  .option('--bots <list>', 'bots by seat', 'random')
  .option('--deals <n>', 'deals to play', positiveInt('--deals'), 1_000_000)
  .option('--workers <n>', 'worker threads', positiveInt('--workers'), 1)
  .option('--seed <seed>', 'master seed', seedText, 'bench')
  .option('--rules <list>', 'rule variants, key=value,...')
  .option('--players <n>', 'number of seats', positiveInt('--players'))
  .option('--yardstick <playout.c>', 'also run the C yardstick (../shared/bench-ref/playout.c) before and after, and print the ratio')
  .action(async (o: { game: string; bots: string; deals: number; workers: number; seed: string; rules?: string; players?: number; yardstick?: string }) => {
    const game = gameNamed(o.game);
    const table = tableFor(game, o.players, o.rules);
    const lineup = await resolveLineup(o.bots, game, table.seats);
    if (o.workers !== 1) throw new TafelError('bad-workers', '--workers: the worker pool is not built yet; use --workers 1');
    const before = o.yardstick ? runYardstick(o.yardstick, Math.max(o.deals, 10_000_000)) : null;
    const gc = countGc();
    const r = benchDeals(game, table, lineup, o.seed, o.deals);
    const gcEvents = gc.stop();
    const after = o.yardstick ? runYardstick(o.yardstick, Math.max(o.deals, 10_000_000)) : null;
    const out = [
      `bench: ${game.name}, bots ${o.bots}, ${r.deals} deals, 1 thread, ${r.seconds.toFixed(2)} s`,
      `gc: ${gcEvents.count} collections during the run (${gcEvents.ms.toFixed(1)} ms)`,
    ];
    if (before && after) {
      const c = (before + after) / 2;
      out.push(`yardstick: C ${Math.round(before)} and ${Math.round(after)} deals/s (before, after); tafel/C = ${(r.dealsPerSecond / c).toFixed(3)}`);
    }
    out.push(`throughput: ${Math.round(r.dealsPerSecond)} deals/s`);
    process.stdout.write(out.join('\n') + '\n');
  });

program
  .command('games')
  .description('list the games and their rule variants')
  .action(() => {
    for (const g of GAMES) {
      const seats = g.minSeats === g.maxSeats ? `${g.minSeats}` : `${g.minSeats}-${g.maxSeats}`;
      process.stdout.write(`${g.name} (${seats} players): ${g.title}\n`);
      for (const line of describeParams(g.variants)) process.stdout.write(`  --rules ${line}\n`);
    }
  });

program
  .command('bots')
  .description('list the built-in bots and their parameters')
  .action(() => {
    for (const b of BUILTIN_BOTS) {
      const games = b.games ? ` [${b.games.join(', ')}]` : ' [every game]';
      process.stdout.write(`${b.name}${games}${b.cheats ? ' (cheats: sees every hand)' : ''}: ${b.description}\n`);
      for (const line of describeParams(b.params)) process.stdout.write(`  ${b.name}:${line}\n`);
    }
  });

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof TafelError) {
      process.stderr.write(`tafel: ${e.message}\n`);
      process.exitCode = e.code === 'bot-failed' ? 3 : 2;
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
