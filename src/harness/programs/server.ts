/**
 * A bot of tafel (built-in or module) behind the bot protocol (PROTOCOL.md): the bot
 * side of the conversation, one message in, the messages to answer out. `tafel bot`
 * (cli/bot.ts) feeds it stdin's lines.
 *
 * The protocol's requests are stateless: a `move` carries everything the seat may know,
 * not the state. A bot of tafel needs an `Observation`, so the server rebuilds a deal
 * that the seat cannot tell from the real one, any deal of a match: each seat dealt as
 * many cards as it holds and has played, its own dealt hand, the cards it saw each seat
 * play given to that seat, the turn-up to the dealer when the whole pack is dealt (else
 * out of play, C-4), the rest of the pack in order over the places still empty; the
 * match's part of the deal (targets, slate, who plays, Partie totals, pot) read from
 * the request by the game (`GameProtocol.start`, which refuses what no match can
 * produce); then it replays the history (the others' cards need not be legal in that
 * deal: only what the seat sees must be as it was). The seat's window on that deal
 * equals its window on the real deal (the game contract's information hiding;
 * test/bot-protocol.test.ts checks it), and the server checks it too: the rebuilt deal's
 * encoding must be the request's, field for field, or the request is refused. A bot's
 * `ctx.rng` restarts at each `deal` from the message's `seed`, so the bot draws what it
 * draws in process. Nothing is kept from one request to the next but the seat and its
 * generator: the server serves a later deal of a match without having seen the earlier.
 */
import type { Bot } from '../../games/bot.js';
import { setHas, setSelect } from '../../core/cardset.js';
import { TafelError } from '../../core/errors.js';
import { SUITS } from '../../core/french.js';
import { Rng } from '../../core/rng.js';
import { cardCode } from '../../games/card-names.js';
import {
  Decision,
  NO,
  YES,
  type Game,
  type Json,
  type Observation,
  type State,
  type TableConfig,
} from '../../games/game.js';
import { parseParam } from '../../games/params.js';
import type { Entrant } from '../table/lineup.js';
import { PROTOCOL_VERSION } from './requests.js';

type Message = { readonly [key: string]: Json };

export class BotServer {
  private readonly state: State;
  /** The deal a request describes as it was dealt, before its moves. */
  private readonly begun: State;
  private readonly legal = new Int32Array(4);
  private readonly rngs: Rng[];
  private bots: (Bot | null)[];
  private params: Record<string, string | number | boolean>;
  /**
   * The cards a deal deals, by name, read from a deal of the server's own: the whole
   * pack in the French games (where the hands hold it all when every seat plays),
   * enough for every hand in Vier-Anderle (whose cards out of play are nowhere).
   */
  private readonly pack: string[];
  /** The seat of the current deal, or -1 before the first `deal` and after a `result`. */
  private seat = -1;
  private greeted = false;

  constructor(
    private readonly game: Game,
    private readonly table: TableConfig,
    private readonly entrant: Entrant,
  ) {
    if (entrant.spec.cheats === true)
      throw new TafelError('bad-bot', `bot ${entrant.source} sees every hand: it cannot play over the protocol`);
    this.state = game.newState(table);
    this.begun = game.newState(table);
    this.rngs = Array.from({ length: table.seats }, () => new Rng());
    this.bots = new Array<Bot | null>(table.seats).fill(null);
    this.params = { ...entrant.params };
    const scratch = game.newState(table);
    game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(scratch, new Rng([1, 2, 3, 4]));
    this.pack = [];
    for (let s = 0; s < table.seats; s++)
      this.pack.push(...cardList(game.protocol.encode(scratch.observe(s)).dealt, 'dealt'));
  }

  /** The bot's `bot` message: its name and options, the command line's values as defaults. */
  private hello(): Message {
    const options = this.entrant.spec.params.map((p) => {
      const o: { [key: string]: Json } = {
        key: p.key,
        type: typeof p.type === 'string' ? p.type : 'choice',
        default: this.entrant.params[p.key],
      };
      if (typeof p.type !== 'string') o.choices = [...p.type];
      if (p.min !== undefined) o.min = p.min;
      if (p.max !== undefined) o.max = p.max;
      o.description = p.description;
      return o;
    });
    return { type: 'bot', protocol: PROTOCOL_VERSION, name: this.entrant.bot, options };
  }

  /**
   * Answer one message: the lines to write back (none for most), or null after `quit`.
   * A message the protocol does not allow here throws a TafelError (`protocol`).
   */
  handle(msg: Message): Message[] | null {
    const type = msg.type;
    if (!this.greeted && type !== 'tafel' && type !== 'quit')
      fail(`expected the 'tafel' handshake first, got ${JSON.stringify(type)}`);
    switch (type) {
      case 'tafel':
        this.handshake(msg);
        return [this.hello()];
      case 'options':
        this.setOptions(msg);
        return [];
      case 'deal':
        this.startDeal(msg);
        return [];
      case 'move':
        return [{ type: 'play', move: this.move(msg) }];
      case 'result':
        if (this.seat < 0) fail('result outside a deal');
        this.rebuild(msg, false);
        this.seat = -1;
        return [];
      case 'quit':
        return null;
      default:
        return fail(`unknown message type ${JSON.stringify(type)}`);
    }
  }

  private handshake(msg: Message): void {
    if (msg.protocol !== PROTOCOL_VERSION)
      fail(`protocol ${JSON.stringify(msg.protocol)}: this bot speaks ${PROTOCOL_VERSION}`);
    if (msg.game !== this.game.name)
      fail(`game ${JSON.stringify(msg.game)}: this bot was started for ${this.game.name}`);
    if (msg.players !== this.table.seats)
      fail(`players ${JSON.stringify(msg.players)}: this bot was started for ${this.table.seats}`);
    const rules = msg.rules;
    const want = this.table.rules;
    const same =
      typeof rules === 'object' &&
      rules !== null &&
      !Array.isArray(rules) &&
      Object.keys(rules).length === Object.keys(want).length &&
      Object.entries(want).every(([k, v]) => (rules as { [key: string]: Json })[k] === v);
    if (!same) fail(`rules ${JSON.stringify(rules)}: this bot was started for ${JSON.stringify(want)}`);
    this.greeted = true;
  }

  private setOptions(msg: Message): void {
    if (this.seat >= 0) fail('options during a deal');
    const values = msg.values;
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      fail("options: 'values' must be an object");
    const next = { ...this.params };
    for (const [key, value] of Object.entries(values as { [key: string]: Json })) {
      const spec = this.entrant.spec.params.find((p) => p.key === key);
      if (!spec) fail(`options: unknown option '${key}'`);
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
        fail(`options: ${key} must be a string, number or boolean`);
      next[key] = parseParam(spec, String(value), 'options');
    }
    this.params = next;
    // New parameters, new bots: a bot reads its parameters when it is created.
    this.bots.fill(null);
  }

  private startDeal(msg: Message): void {
    if (this.seat >= 0) fail("deal before the last deal's result");
    const seat = msg.seat;
    if (typeof seat !== 'number' || seat >>> 0 !== seat || seat >= this.table.seats)
      fail(`deal: bad seat ${JSON.stringify(seat)}`);
    const rng = this.rngs[seat];
    if (typeof msg.seed !== 'string' || !rng.setHex(msg.seed))
      fail('deal: seed must be 32 lower-case hex digits, not all zero');
    this.seat = seat;
    this.rebuild(msg, false);
  }

  private move(msg: Message): string {
    if (this.seat < 0) fail('move outside a deal');
    this.rebuild(msg, true);
    const state = this.state;
    const obs = state.observe(this.seat);
    if (state.toMove !== this.seat) fail(`move: seat ${this.seat} is not to move (seat ${state.toMove} is)`);
    const n = state.legal(this.legal, 0);
    const move = this.botAt(this.seat).act(obs, this.legal, n);
    if (!(move >>> 0 === move && setHas(this.legal, 0, move)))
      throw new TafelError('bot-failed', `bot ${this.entrant.bot} played an illegal move (${String(move)})`);
    return this.game.protocol.moveName(obs, move);
  }

  private botAt(seat: number): Bot {
    const ready = this.bots[seat];
    if (ready) return ready;
    const bot = this.entrant.spec.create({
      game: this.game,
      table: this.table,
      seat,
      rng: this.rngs[seat],
      params: this.params,
    });
    this.bots[seat] = bot;
    return bot;
  }

  /**
   * Set `this.state` up as a deal that the seat cannot tell from the one described by
   * `msg`, and check that it is: its encoding must equal the message's fields.
   */
  private rebuild(msg: Message, withLegal: boolean): void {
    const { game, table, seat } = this;
    if (msg.seat !== seat) fail(`${typeName(msg)}: seat ${JSON.stringify(msg.seat)}, but the deal is seat ${seat}'s`);
    const dealer = msg.dealer;
    if (typeof dealer !== 'number' || dealer >>> 0 !== dealer || dealer >= table.seats)
      fail(`bad dealer ${JSON.stringify(dealer)}`);
    const history = historyOf(msg.history, table.seats);
    const trump = typeof msg.trump === 'string' ? SUITS.indexOf(msg.trump as (typeof SUITS)[number]) : 0;
    const turnup = typeof msg.turnup === 'string' ? msg.turnup : null;
    // Each seat was dealt the cards it holds and those it played.
    const sizes = sizesOf(msg.handSizes, table.seats, this.pack.length);
    for (const [s, name] of history) if (name !== 'yes' && name !== 'no') sizes[s]++;
    const hands: string[][] = Array.from({ length: table.seats }, () => []);
    const placed = new Set<string>();
    const give = (s: number, card: string) => {
      if (placed.has(card)) return;
      placed.add(card);
      hands[s].push(card);
    };
    for (const card of cardList(msg.dealt, 'dealt')) give(seat, card);
    for (const [s, name] of history) if (s !== seat && isCard(name)) give(s, name);
    if (turnup !== null) {
      // C-4: the turn-up is the dealer's when the whole pack is dealt, else out of play.
      if (sizes.reduce((a, b) => a + b, 0) === this.pack.length) give(dealer, turnup);
      else placed.add(turnup);
    }
    const pool = this.pack.filter((c) => !placed.has(c));
    for (let s = 0; s < table.seats; s++)
      while (hands[s].length < sizes[s] && pool.length > 0) hands[s].push(pool.shift()!);
    const board = { dealer: dealer, hands, turnup };
    // The match's facts (targets, slate, Partie totals, pot) come from the request too.
    const problem = game.protocol.start(table, this.begun, board, msg);
    if (problem !== null) fail(`${typeName(msg)}: not a deal of this table (${problem})`);
    // A card the seat has not seen (a face-down lead) is one its player held that the
    // history does not show: try each until the deal looks as described.
    const hidden = history.find(([, name]) => name === '??');
    const shown = new Set(history.map(([, name]) => name));
    const picks = hidden === undefined ? [''] : hands[hidden[0]].filter((c) => !shown.has(c));
    let problemText = 'history: no card left for the face-down move';
    for (const pick of picks) {
      const why = this.replay(msg, history, pick, trump, withLegal);
      if (why === null) return;
      problemText = why;
      if (hidden === undefined) break;
    }
    fail(problemText);
  }

  /**
   * Start `this.state` from the deal as dealt and replay `history` (`pick` for a
   * face-down card); null when the seat's window then shows what `msg` says, else what differs.
   */
  private replay(
    msg: Message,
    history: readonly (readonly [number, string])[],
    pick: string,
    trump: number,
    withLegal: boolean,
  ): string | null {
    const { game, state, seat } = this;
    state.copyFrom(this.begun);
    for (let ply = 0; ply < history.length; ply++) {
      const [s, name] = history[ply];
      if (state.isTerminal() || state.toMove !== s)
        return `history: ply ${ply} is seat ${s}'s, but seat ${state.toMove} is to move`;
      const code = name === 'yes' ? YES : name === 'no' ? NO : cardCode(game.name, name === '??' ? pick : name, trump);
      // The others' hands are only guessed: their cards need not be legal there, but yes
      // and no must answer a question, and a card must be a card.
      if (code < 0 || (code === YES || code === NO) !== (state.decision !== Decision.Card))
        return `history: ply ${ply} (seat ${s} ${name}) is not a move of this deal`;
      state.apply(code);
    }
    return this.mismatch(msg, state.observe(seat), withLegal);
  }

  /** What differs between the request and the rebuilt deal's encoding (and `legal` its legal moves), or null. */
  private mismatch(msg: Message, obs: Observation, withLegal: boolean): string | null {
    const encoded = this.game.protocol.encode(obs);
    const type = typeName(msg);
    // Fields it does not know are ignored (PROTOCOL.md "Lines": later minor versions may add some).
    for (const [key, value] of Object.entries(encoded)) {
      if (JSON.stringify(msg[key]) !== JSON.stringify(value))
        return `${type}: field '${key}' is ${JSON.stringify(msg[key]) ?? 'missing'}; the deal rebuilt from the request has ${JSON.stringify(value)}`;
    }
    if (!withLegal) return null;
    const n = this.state.legal(this.legal, 0);
    const legal: string[] = [];
    for (let k = 0; k < n; k++) legal.push(this.game.protocol.moveName(obs, setSelect(this.legal, 0, k)));
    if (JSON.stringify(msg.legal) !== JSON.stringify(legal))
      return `move: legal is ${JSON.stringify(msg.legal) ?? 'missing'}; the deal rebuilt from the request allows ${JSON.stringify(legal)}`;
    return null;
  }
}

function fail(message: string): never {
  throw new TafelError('protocol', message);
}

function isCard(name: string): boolean {
  return name !== '??' && name !== 'yes' && name !== 'no';
}

function cardList(value: Json | undefined, what: string): string[] {
  if (!Array.isArray(value) || !value.every((c) => typeof c === 'string'))
    fail(`'${what}' must be a list of card names`);
  return value;
}

function historyOf(value: Json | undefined, seats: number): [number, string][] {
  if (!Array.isArray(value)) fail("'history' must be a list of [seat, move] pairs");
  return (value as readonly Json[]).map((entry, ply) => {
    const pair: readonly Json[] = Array.isArray(entry) ? (entry as readonly Json[]) : [];
    const [seat, move] = pair;
    if (pair.length !== 2 || !isSeat(seat, seats) || typeof move !== 'string')
      fail(`history: ply ${ply} must be [seat, move]`);
    return [seat as number, move];
  });
}

/** The request's `handSizes`, a count by seat (a copy, to add the cards played to). */
function sizesOf(value: Json | undefined, seats: number, most: number): number[] {
  const counts: readonly Json[] = Array.isArray(value) ? (value as readonly Json[]) : [];
  if (!(counts.length === seats && counts.every((n) => isCount(n, most))))
    fail(`'handSizes' must be a list of ${seats} card counts`);
  return counts.map(Number);
}

function isSeat(value: Json | undefined, seats: number): boolean {
  return typeof value === 'number' && value >>> 0 === value && value < seats;
}

function isCount(value: Json | undefined, most: number): boolean {
  return typeof value === 'number' && value >>> 0 === value && value <= most;
}

function typeName(msg: Message): string {
  return typeof msg.type === 'string' ? msg.type : JSON.stringify(msg.type);
}
