/**
 * tafel's side of the bot protocol (PROTOCOL.md) over a running program: the
 * handshake, options, and one seat's deals. Whatever the program gets wrong is a
 * BotFault of the protocol's kinds ("Errors"); the client then kills the program,
 * which is not to be trusted with another request. `info` lines go to the bot's log.
 */
import { writeSync } from 'node:fs';
import { setSelect } from '../../core/cardset.js';
import { TafelError } from '../../core/errors.js';
import type { Game, Json, Observation, ParamSpec, ParamValue, Params, TableConfig } from '../../games/game.js';
import { BotFault, quote, type FaultKind } from './fault.js';
import type { ProgramProcess } from './process.js';
import {
  PROTOCOL_VERSION,
  dealRequest,
  helloRequest,
  legalNames,
  moveRequest,
  resultRequest,
  type DealSite,
} from './requests.js';

/** What a program says of itself in the handshake. */
export interface Handshake {
  readonly name: string;
  readonly options: readonly ParamSpec[];
}

type Message = { readonly [key: string]: Json };

const KEY = /^[A-Za-z0-9_]+$/;

export class ProgramClient {
  /** The options' values as the program has them now. */
  private readonly values: Record<string, ParamValue> = {};
  private readonly names: string[] = [];
  /** Where `info` lines come from, for the log. */
  private where = 'handshake';
  private waited = 0;

  constructor(
    readonly proc: ProgramProcess,
    private readonly game: Game,
    private readonly table: TableConfig,
    /** The bot's log (an open file descriptor), for `info` lines. */
    private readonly log: number,
  ) {}

  /** Wall milliseconds the last `move` waited for its answer. */
  get lastMs(): number {
    return this.waited;
  }

  /** Send `tafel` and read the program's `bot`, within `ms`: its name and options, checked. */
  handshake(ms: number): Handshake {
    const start = performance.now();
    this.proc.send(helloRequest(this.game, this.table), ms, 'answer the handshake');
    for (;;) {
      const line = this.proc.receive(ms - (performance.now() - start), 'answer the handshake', ms);
      const msg = this.parse(line);
      if (msg.type === 'info') this.info(line);
      else if (msg.type === 'bot') return this.hello(msg);
      else throw this.fault('protocol', `answered the handshake with ${typeText(msg)}, not 'bot' (protocol violation)`);
    }
  }

  /** Send the options among `values` whose values the program does not have yet (nothing if none). */
  setOptions(values: Params): void {
    const changed: Record<string, ParamValue> = {};
    let any = false;
    for (const [key, value] of Object.entries(values)) {
      if (!(key in this.values)) throw new TafelError('unknown-param', `the program has no option '${key}'`);
      if (this.values[key] === value) continue;
      changed[key] = value;
      any = true;
    }
    if (!any) return;
    this.proc.send(JSON.stringify({ type: 'options', values: changed }));
    Object.assign(this.values, changed);
  }

  /** Begin the seat's deal at `site`, with its seed (32 hex digits) and its observation. */
  deal(site: DealSite, seed: string, obs: Observation): void {
    this.where = `group ${site.group} rotation ${site.rotation} deal ${site.deal} seat ${obs.seat}`;
    this.proc.send(dealRequest(this.game, site, seed, obs));
  }

  /** Ask for a move among the `count` in `legal`, within `ms` (Infinity: no limit): its code. */
  move(obs: Observation, legal: Int32Array, count: number, ms: number): number {
    this.unasked();
    const names = legalNames(this.game, obs, legal, count, this.names);
    const start = performance.now();
    try {
      this.proc.send(moveRequest(this.game, obs, names), ms, 'play');
      for (;;) {
        const line = this.proc.receive(ms - (performance.now() - start), 'play', ms);
        const msg = this.parse(line);
        if (msg.type === 'info') {
          this.info(line);
          continue;
        }
        if (msg.type !== 'play') throw this.unexpected(msg);
        const k = typeof msg.move === 'string' ? names.indexOf(msg.move) : -1;
        if (k < 0) {
          const played =
            typeof msg.move === 'string'
              ? quote(msg.move)
              : msg.move === undefined
                ? 'no move'
                : quote(JSON.stringify(msg.move));
          const list = quote(names.join(' '), 60).slice(1, -1);
          throw this.fault('illegal', `played ${played}, not a legal move (illegal move; legal: ${list})`);
        }
        return setSelect(legal, 0, k);
      }
    } finally {
      this.waited = performance.now() - start;
    }
  }

  /** End the seat's deal: its observation at the end. */
  result(obs: Observation): void {
    this.proc.send(resultRequest(this.game, obs));
  }

  /** Ask the program to quit; killed after `graceMs`. */
  quit(graceMs: number): void {
    this.proc.quit(graceMs);
  }

  /** Lines the program wrote while nothing was asked: `info` is fine, anything else a fault. */
  private unasked(): void {
    for (let line = this.proc.poll(); line !== null; line = this.proc.poll()) {
      const msg = this.parse(line);
      if (msg.type === 'info') this.info(line);
      else throw this.unexpected(msg);
    }
  }

  /** The fault of a message that is not the answer expected. */
  private unexpected(msg: Message): BotFault {
    const type = msg.type;
    if (type === 'bot') return this.fault('protocol', "sent 'bot' after the handshake (protocol violation)");
    if (type === 'play') return this.fault('protocol', "sent 'play' where no move was asked (protocol violation)");
    if (type === undefined)
      return this.fault(
        'protocol',
        `sent a message without a type: ${quote(JSON.stringify(msg))} (protocol violation)`,
      );
    return this.fault('protocol', `sent a message of unknown type ${typeText(msg)} (protocol violation)`);
  }

  private parse(line: string): Message {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = null;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
      throw this.fault('malformed', `wrote a line that is not a JSON object: ${quote(line)} (malformed)`);
    return msg as Message;
  }

  private info(line: string): void {
    writeSync(this.log, `${this.where}: ${line}\n`);
  }

  private fault(kind: FaultKind, message: string): BotFault {
    this.proc.kill();
    return new BotFault(kind, message);
  }

  /** Check the `bot` message and take its options' defaults as the program's values. */
  private hello(msg: Message): Handshake {
    const bad = (what: string): BotFault => this.fault('protocol', `handshake: ${what} (protocol violation)`);
    if (msg.protocol !== PROTOCOL_VERSION)
      throw bad(`speaks protocol ${quote(JSON.stringify(msg.protocol) ?? 'none')}, not ${PROTOCOL_VERSION}`);
    if (typeof msg.name !== 'string' || msg.name.trim() === '') throw bad("'name' must be a non-empty string");
    const list = msg.options ?? [];
    if (!Array.isArray(list)) throw bad("'options' must be a list");
    const options: ParamSpec[] = [];
    for (const raw of list as readonly Json[]) {
      const spec = optionSpec(raw);
      if (typeof spec === 'string') throw bad(spec);
      if (options.some((o) => o.key === spec.key)) throw bad(`option '${spec.key}' declared twice`);
      options.push(spec);
    }
    for (const o of options) this.values[o.key] = o.default;
    return { name: msg.name, options };
  }
}

function typeText(msg: Message): string {
  return msg.type === undefined ? 'no type' : quote(typeof msg.type === 'string' ? msg.type : JSON.stringify(msg.type));
}

/** A declared option as a ParamSpec, or what is wrong with it. */
function optionSpec(raw: Json): ParamSpec | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'an option must be an object';
  const o = raw as Message;
  if (typeof o.key !== 'string' || !KEY.test(o.key))
    return `option key ${quote(JSON.stringify(o.key) ?? 'missing')} is not letters, digits and _`;
  const key = o.key;
  const description = o.description ?? '';
  if (typeof description !== 'string') return `option '${key}': 'description' must be a string`;
  const value = o.default;
  if (o.type === 'boolean') {
    if (typeof value !== 'boolean') return `option '${key}': default must be true or false`;
    return { key, description, type: 'boolean', default: value };
  }
  if (o.type === 'choice') {
    const choices = o.choices;
    if (!Array.isArray(choices) || choices.length === 0 || !choices.every((c) => typeof c === 'string' && c !== ''))
      return `option '${key}': 'choices' must be a non-empty list of words`;
    const words = choices as readonly string[];
    if (new Set(words).size !== words.length) return `option '${key}': a choice is listed twice`;
    if (typeof value !== 'string' || !words.includes(value))
      return `option '${key}': default ${quote(JSON.stringify(value) ?? 'missing')} is not one of its choices`;
    return { key, description, type: words, default: value };
  }
  if (o.type !== 'int' && o.type !== 'number')
    return `option '${key}': type ${quote(JSON.stringify(o.type) ?? 'missing')} is not int, number, boolean or choice`;
  const type = o.type;
  const whole = (v: number) => type === 'number' || Number.isInteger(v);
  const bound = (b: Json | undefined, name: string): number | undefined | string => {
    if (b === undefined || b === null) return undefined;
    if (typeof b !== 'number' || !Number.isFinite(b) || !whole(b))
      return `option '${key}': '${name}' must be a ${type}`;
    return b;
  };
  const min = bound(o.min, 'min');
  if (typeof min === 'string') return min;
  const max = bound(o.max, 'max');
  if (typeof max === 'string') return max;
  if (typeof value !== 'number' || !Number.isFinite(value) || !whole(value))
    return `option '${key}': default must be a${type === 'int' ? 'n int' : ' number'}`;
  if (min !== undefined && max !== undefined && min > max) return `option '${key}': min ${min} is above max ${max}`;
  if (min !== undefined && value < min) return `option '${key}': default ${value} is below its min ${min}`;
  if (max !== undefined && value > max) return `option '${key}': default ${value} is above its max ${max}`;
  const spec: { -readonly [K in keyof ParamSpec]: ParamSpec[K] } = { key, description, type, default: value };
  if (min !== undefined) spec.min = min;
  if (max !== undefined) spec.max = max;
  return spec;
}
