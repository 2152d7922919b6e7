/**
 * Who plays where: the `--bots` list resolved to bot specs, spread over the seats, and
 * the seat rotations of duplicate play.
 *
 * Each name of the list is a bot (`heuristic:aggression=0.7`, `./my-bot.js`), optionally
 * with a label (`a=pimc:worlds=40`): the label is what tables, CSVs and records show,
 * and it decides identity. The same label twice is one bot (`a,b,a,b` names every seat
 * of two bots); the same bot under two labels is two copies (`x=heuristic,y=heuristic`,
 * an A/A test). Without a label the bot's text is its label.
 *
 * `a,b` at four seats gives a,b,a,b; rotation r seats the list shifted by r, so the
 * bots trade places (teams swap in Viersche) while the cards stay the same. Only
 * distinct rotations are played: a,b,a,b has two, a,b,c,d four, a,a,a,a one.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { TafelError, isTafelError } from '../../core/errors.js';
import type { Game, Params, TableConfig } from '../../games/game.js';
import { parseParam } from '../../games/params.js';
import type { BotSpec } from '../../games/bot.js';
import { BUILTIN_BOT_NAMES, loadBuiltinBot } from '../../../bots/names.js';
import { handshakePlace, programBot, type ProgramPlace } from '../programs/bot.js';
import type { ProcessRegistry } from '../programs/registry.js';

/**
 * The bot programs that a `--bots` list may name (`--program name=command`), and how
 * to start one here to ask its name and options (PROTOCOL.md's handshake).
 */
export interface Programs {
  /** Command by name. */
  readonly commands: Readonly<Record<string, string>>;
  /** The table they are asked to play (the handshake names it). */
  readonly table: TableConfig;
  /** The file a program started here writes its stderr to, by bot label. */
  readonly log: (label: string) => string;
  readonly registry?: ProcessRegistry | null;
}

export interface Entrant {
  /** What tables show: the label given, or the bot as written (`heuristic:aggression=0.7`). */
  readonly label: string;
  /** The bot as written, without its label. */
  readonly bot: string;
  /** A built-in bot's name, or a bot module's path as written (relative to the run's directory). */
  readonly source: string;
  readonly spec: BotSpec;
  /** Every parameter in force, defaults included. */
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

/** A name of the `--bots` list: its label (the bot itself when none is given) and the bot. */
export interface BotName {
  readonly label: string;
  readonly bot: string;
}

/** `label=bot`: a label starts with a letter and holds letters, digits and `_ . -` (so never `:` or `/`). */
const LABELLED = /^([A-Za-z][\w.-]*)=(.+)$/;

/** The names of a `--bots` list, checked: no empty name, no label given to two different bots. */
export function parseBots(text: string): BotName[] {
  const names = text.split(',').map((part): BotName => {
    const s = part.trim();
    const m = LABELLED.exec(s);
    return m ? { label: m[1], bot: m[2].trim() } : { label: s, bot: s };
  });
  const bad = (why: string): never => {
    throw new TafelError('bad-bot', `--bots '${text}': ${why}`);
  };
  const seen = new Map<string, string>();
  for (const n of names) {
    if (n.label === '' || n.bot === '') bad('empty bot name');
    const other = seen.get(n.label);
    if (other !== undefined && other !== n.bot)
      bad(`label ${n.label} names two different bots (${other} and ${n.bot})`);
    seen.set(n.label, n.bot);
  }
  return names;
}

/** `dir` is the directory that bot module paths are relative to (the working directory if absent). */
export async function resolveLineup(
  botsText: string,
  game: Game,
  seats: number,
  dir?: string,
  programs?: Programs,
): Promise<Lineup> {
  const names = parseBots(botsText);
  if (names.length > seats) {
    throw new TafelError('bad-bot', `--bots names ${names.length} bots but ${game.name} has ${seats} seats here`);
  }
  const entrants: Entrant[] = [];
  const index = new Map<string, number>();
  for (const n of names) {
    if (index.has(n.label)) continue;
    index.set(n.label, entrants.length);
    entrants.push(await resolveEntrant(n, game, dir, programs));
  }
  const spread = Array.from({ length: seats }, (_, s) => index.get(names[s % names.length].label)!);
  const seatings = seatingsOf(spread, entrants.length, names.length, game.teams(seats));
  return { entrants, base: seatings[0], rotations: seatings.length, seatings };
}

/** `name[:key=value]...` or `path/to/bot.js[:key=value]...`, under its label (`label=bot` in text). */
export async function resolveEntrant(
  bot: BotName | string,
  game: Game,
  dir?: string,
  programs?: Programs,
): Promise<Entrant> {
  const name = typeof bot === 'string' ? parseBots(bot)[0] : bot;
  const [source, ...assignments] = splitBot(name.bot);
  const command = programs?.commands[source];
  const spec =
    command === undefined
      ? await loadBot(source, game, dir)
      : checkedProgram(source, command, name.label, game, dir, programs!);
  const where = `bot ${source}`;
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
  return { label: name.label, bot: name.bot, source, spec, params };
}

/** A program's spec from its handshake, here and now (it quits at once). */
function checkedProgram(
  source: string,
  command: string,
  label: string,
  game: Game,
  dir: string | undefined,
  programs: Programs,
): BotSpec {
  const place = handshakePlace(resolve(dir ?? '.'), programs.log(label), programs.registry ?? null);
  return programSpec(source, command, game, programs.table, place, false);
}

/** `programBot`, with one line naming the program when it cannot start or shake hands. */
export function programSpec(
  source: string,
  command: string,
  game: Game,
  table: TableConfig,
  place: ProgramPlace,
  keep: boolean,
): BotSpec {
  try {
    return programBot(source, command, game, table, place, keep);
  } catch (e) {
    if (!isTafelError(e)) throw e;
    throw new TafelError('bad-bot', `bot program ${source} (${command}): ${e.message}`);
  }
}

/**
 * The spec of a built-in bot (by name) or of a bot module (by path, relative to `dir`),
 * checked to play `game`.
 */
export async function loadBot(source: string, game: Game, dir?: string): Promise<BotSpec> {
  const spec = isModulePath(source)
    ? await loadBotFile(resolve(dir ?? '.', source), source)
    : await loadBuiltinBot(source, game);
  if (!spec) {
    const known = BUILTIN_BOT_NAMES.join(', ');
    throw new TafelError(
      'unknown-bot',
      `unknown bot '${source}' (built-in: ${known}; or give a path to a .js or .ts bot module, or declare a bot program with --program ${source}=COMMAND)`,
    );
  }
  if (spec.games && !spec.games.includes(game.name)) {
    throw new TafelError('bad-bot', `bot ${spec.name} does not play ${game.name} (it plays: ${spec.games.join(', ')})`);
  }
  return spec;
}

function isModulePath(source: string): boolean {
  return /[\\/]/.test(source) || /\.(m|c)?[jt]s$/.test(source);
}

/** An error's first line, and the next when the first only announces it (esbuild's "Transform failed with 1 error:"). */
function firstLine(message: string): string {
  const [first, next] = message.split('\n');
  return first.endsWith(':') && next ? `${first} ${next.trim()}` : first;
}

/** A TypeScript module, which Node 20 cannot import by itself. */
const TYPESCRIPT = /\.(m|c)?ts$/;

/**
 * Import a bot module. A TypeScript one goes through tsx (esbuild), loaded only then and
 * without registering a loader for anything else. tsx compiles a `.ts` outside a
 * `"type": "module"` package to CommonJS, whose exports object (marked `__esModule`)
 * arrives as `default`: then that object holds the module's `default` and `bot`.
 */
async function importBot(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  if (!TYPESCRIPT.test(path)) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await import('tsx/esm/api');
  const mod = (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  const exported = mod.default as Record<string, unknown> | undefined;
  return typeof exported === 'object' && exported !== null && exported.__esModule === true ? exported : mod;
}

/** Split on ':' except a Windows drive letter's. */
function splitBot(bot: string): string[] {
  const parts = bot.split(':');
  if (parts.length > 1 && /^[A-Za-z]$/.test(parts[0])) parts.splice(0, 2, `${parts[0]}:${parts[1]}`);
  return parts;
}

async function loadBotFile(path: string, shown: string): Promise<BotSpec> {
  if (!existsSync(path)) throw new TafelError('bad-bot', `bot file ${shown}: not found`);
  let mod: Record<string, unknown>;
  try {
    mod = await importBot(path);
  } catch (e) {
    throw new TafelError('bad-bot', `bot file ${shown}: cannot load: ${firstLine((e as Error).message)}`);
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
