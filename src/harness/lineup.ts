/**
 * Who plays where: the `--bots` list resolved to bot specs, spread over the seats, and
 * the seat rotations of duplicate play.
 *
 * `a,b` at four seats gives a,b,a,b; rotation r seats the list shifted by r, so the
 * bots trade places (teams swap in Viersche) while the cards stay the same. Only
 * distinct rotations are played: a,b,a,b has two, a,b,c,d four, a,a,a,a one.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { TafelError } from '../core/errors.js';
import type { Game, Params } from '../games/game.js';
import { parseParam } from '../games/params.js';
import type { BotSpec } from '../../bots/bot.js';
import { BUILTIN_BOTS, builtinBot } from '../../bots/registry.js';

export interface Entrant {
  /** As written on the command line: `heuristic:aggression=0.7`. */
  readonly label: string;
  /** A built-in bot's name, or the absolute path of a bot module (workers load it again). */
  readonly source: string;
  readonly spec: BotSpec;
  readonly params: Params;
}

export interface Lineup {
  readonly entrants: readonly Entrant[];
  /** Entrant index at each seat for rotation 0. */
  readonly base: readonly number[];
  /** Number of seatings (rotations) played per deal. */
  readonly rotations: number;
  /** seatings[r][seat]: the entrant at `seat` in rotation r. */
  readonly seatings: readonly (readonly number[])[];
}

/** Entrant index seated at `seat` in rotation `rotation`. */
export function entrantAt(lineup: Lineup, seat: number, rotation: number): number {
  return lineup.seatings[rotation][seat];
}

/**
 * The seatings of one duplicate group. By default the distinct cyclic shifts of the
 * seat list, so every bot plays every position with the same cards. In a partnership
 * game with more bots than sides, named fewer than the seats (`a,b,c` in Viersche),
 * that would split bots across both sides, so tafel plays a round robin instead: every
 * pair of bots meets as two partnerships (a,b,a,b and b,a,b,a) on the group's cards.
 */
export function seatingsOf(
  base: readonly number[],
  entrants: number,
  names: number,
  teams: readonly number[] | null,
): number[][] {
  const seats = base.length;
  const sides = teams ? new Set(teams).size : 0;
  if (teams && sides === 2 && entrants > 2 && names < seats) {
    const out: number[][] = [];
    for (let a = 0; a < entrants; a++) {
      for (let b = a + 1; b < entrants; b++) {
        out.push(
          teams.map((t) => (t === 0 ? a : b)),
          teams.map((t) => (t === 0 ? b : a)),
        );
      }
    }
    return out;
  }
  let rotations = 1;
  while (rotations < seats && base.some((e, s) => base[(s + rotations) % seats] !== e)) rotations++;
  return Array.from({ length: rotations }, (_, r) => base.map((_, seat) => base[(seat + seats - r) % seats]));
}

/** `dir` is the directory that bot module paths are relative to (the working directory if absent). */
export async function resolveLineup(botsText: string, game: Game, seats: number, dir?: string): Promise<Lineup> {
  const labels = botsText.split(',').map((s) => s.trim());
  if (labels.some((l) => l === '')) throw new TafelError('bad-bots', `--bots '${botsText}': empty bot name`);
  if (labels.length > seats) {
    throw new TafelError('bad-bots', `--bots names ${labels.length} bots but ${game.name} has ${seats} seats here`);
  }
  const entrants: Entrant[] = [];
  const index = new Map<string, number>();
  for (const label of labels) {
    if (index.has(label)) continue;
    index.set(label, entrants.length);
    entrants.push(await resolveEntrant(label, game, dir));
  }
  const spread = Array.from({ length: seats }, (_, s) => index.get(labels[s % labels.length])!);
  const seatings = seatingsOf(spread, entrants.length, labels.length, game.teams(seats));
  return { entrants, base: seatings[0], rotations: seatings.length, seatings };
}

/** `name[:key=value]...` or `path/to/bot.js[:key=value]...`. */
export async function resolveEntrant(label: string, game: Game, dir?: string): Promise<Entrant> {
  const [name, ...assignments] = splitLabel(label);
  const where = `bot ${name}`;
  const isPath = /[\\/]/.test(name) || /\.(m|c)?js$/.test(name);
  const source = isPath ? resolve(dir ?? '.', name) : name;
  const spec = isPath ? await loadBotFile(source, name) : builtinBot(name, game.name);
  if (!spec) {
    const known = [...new Set(BUILTIN_BOTS.map((b) => b.name))].join(', ');
    throw new TafelError(
      'unknown-bot',
      `unknown bot '${name}' (built-in: ${known}; or give a path to a .js bot module)`,
    );
  }
  if (spec.games && !spec.games.includes(game.name)) {
    throw new TafelError(
      'bot-game',
      `bot ${spec.name} does not play ${game.name} (it plays: ${spec.games.join(', ')})`,
    );
  }
  const params: Record<string, string | number | boolean> = {};
  for (const s of spec.params) params[s.key] = s.default;
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new TafelError('bad-param', `${where}: '${a}' is not key=value`);
    const key = a.slice(0, eq);
    const p = spec.params.find((s) => s.key === key);
    if (!p) {
      const known = spec.params.length ? spec.params.map((s) => s.key).join(', ') : 'none';
      throw new TafelError('unknown-param', `${where}: unknown parameter '${key}' (known: ${known})`);
    }
    params[key] = parseParam(p, a.slice(eq + 1), where);
  }
  return { label, source, spec, params };
}

/** Split on ':' except a Windows drive letter's. */
function splitLabel(label: string): string[] {
  const parts = label.split(':');
  if (parts.length > 1 && /^[A-Za-z]$/.test(parts[0])) parts.splice(0, 2, `${parts[0]}:${parts[1]}`);
  return parts;
}

async function loadBotFile(path: string, shown: string): Promise<BotSpec> {
  if (!existsSync(path)) throw new TafelError('bad-bot', `bot file ${shown}: not found`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (e) {
    throw new TafelError('bad-bot', `bot file ${shown}: cannot load: ${(e as Error).message.split('\n')[0]}`);
  }
  const spec = (mod.default ?? mod.bot) as Partial<BotSpec> | undefined;
  if (!spec || typeof spec.create !== 'function' || typeof spec.name !== 'string') {
    throw new TafelError(
      'bad-bot',
      `bot file ${shown}: must export a bot spec ({ name, description, params, create }) as default or 'bot'`,
    );
  }
  return { description: '', params: [], ...spec } as BotSpec;
}
