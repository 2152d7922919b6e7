/**
 * `tafel games --json` and `tafel bots --json`: the registries as one JSON document each,
 * for tools (docs/listing.md has the keys). Every key is always present (null where a
 * spec leaves it out), so a script can read them without checks.
 */
import { TafelError, isTafelError } from '../core/errors.js';
import type { DealFacts, Fact, Game, Metric, ParamSpec } from '../games/game.js';
import { resolveParams } from '../games/params.js';
import { programSpec } from '../harness/table/lineup.js';
import { handshakePlace } from '../harness/programs/bot.js';
import type { BotSpec } from '../games/bot.js';

interface ParamJson {
  key: string;
  description: string;
  type: ParamSpec['type'];
  default: ParamSpec['default'];
  min: number | null;
  max: number | null;
}

function paramJson(p: ParamSpec): ParamJson {
  return {
    key: p.key,
    description: p.description,
    type: p.type,
    default: p.default,
    min: p.min ?? null,
    max: p.max ?? null,
  };
}

function metricJson(m: Metric) {
  return { key: m.key, description: m.description, higherIsBetter: m.higherIsBetter, binary: m.binary === true };
}

function factJson(f: Fact) {
  return { key: f.key, description: f.description, type: f.type };
}

function factsJson(facts: DealFacts | undefined) {
  return { deal: (facts?.deal ?? []).map(factJson), seat: (facts?.seat ?? []).map(factJson) };
}

export function gamesJson(games: readonly Game[]): string {
  const out = games.map((g) => ({
    name: g.name,
    title: g.title,
    seats: { min: g.minSeats, max: g.maxSeats, default: g.defaultSeats },
    teams: g.teams(g.defaultSeats),
    rules: g.variants.map(paramJson),
    metrics: { deal: g.dealMetrics.map(metricJson), match: g.matchMetrics.map(metricJson) },
    facts: factsJson(g.facts),
  }));
  return JSON.stringify({ games: out }, null, 2) + '\n';
}

/** `game`: the game the list was narrowed to (`--game`), or null. */
export function botsJson(bots: readonly BotSpec[], game: Game | undefined): string {
  const out = bots.map((b) => ({
    name: b.name,
    description: b.description,
    games: b.games ?? null,
    cheats: b.cheats === true,
    params: b.params.map(paramJson),
  }));
  return JSON.stringify({ game: game?.name ?? null, bots: out }, null, 2) + '\n';
}

/** The bots that play `game` (every bot without one). */
export function botsFor(bots: readonly BotSpec[], game: Game | undefined): readonly BotSpec[] {
  return game ? bots.filter((b) => !b.games || b.games.includes(game.name)) : bots;
}

/**
 * A bot program as `tafel bots` lists it: started at each game's default table in turn
 * (a program refuses a game by exiting, PROTOCOL.md), its options those it declares in
 * the first game it plays. One line if it plays none of them.
 */
export function programListing(name: string, command: string, games: readonly Game[], log: string): BotSpec {
  const plays: BotSpec[] = [];
  let first: string | null = null;
  for (const game of games) {
    const table = { seats: game.defaultSeats, rules: resolveParams(game.variants, {}, `rules of ${game.name}`) };
    const place = handshakePlace(process.cwd(), log);
    try {
      plays.push({ ...programSpec(name, command, game, table, place, false), games: [game.name] });
    } catch (e) {
      if (!isTafelError(e)) throw e;
      first ??= e.message;
    }
  }
  if (plays.length === 0)
    throw new TafelError('bad-bot', `${first} (it plays none of: ${games.map((g) => g.name).join(', ')})`);
  return { ...plays[0], games: plays.map((b) => b.games![0]) };
}
