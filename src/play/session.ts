/**
 * A person at one seat, bots at the others: the loop of `tafel play`. Bots answer at
 * once (`Bot.act` is synchronous); the person answers when they like, so the session
 * has its own loop rather than the harness's table, and plays by the same seeding
 * (harness/table/seeding.ts): match (or deal) `g` of a session with seed S is dealt from
 * the cards of group `g` of a run with seed S, and the bot at seat s draws the stream
 * of the bot at seat s in that group's first rotation. A session is a function of the
 * seed and the person's moves.
 *
 * The person sees the observation of their seat and nothing else (`--show-hands` opens
 * the other hands, and the records say so). Forced cards (a single legal card) are
 * played for them. `u` goes back to before the person's last move in this deal: the
 * deal state and every bot's random stream are restored together, so the bots then
 * answer as they would have to that line played straight (bots keep nothing from one
 * decision to the next, src/games/bot.ts). A deal, once over, is scored and cannot be undone.
 *
 * What the person sees at a turn is turn.ts, hints hints.ts, the results result.ts;
 * each game's part of the screen is in games/.
 */
import { CODE_LIMIT, newSets, setFirst, setHas } from '../core/cardset.js';
import { TafelError } from '../core/errors.js';
import { Rng, seedKey, type SeedKey } from '../core/rng.js';
import {
  Decision,
  HIDDEN,
  NO,
  YES,
  type DecisionKind,
  type Game,
  type Match,
  type Observation,
  type State,
  type TableConfig,
} from '../games/game.js';
import type { Bot } from '../games/bot.js';
import type { Board } from '../harness/table/boards.js';
import type { Entrant } from '../harness/table/lineup.js';
import { reseedBot, reseedCards } from '../harness/table/seeding.js';
import { Hints } from './hints.js';
import { parseAnswer, type Menu } from './input.js';
import { Results } from './result.js';
import { cardsPlayed, labelled, seatsOf, settledTrick } from './screen.js';
import { cardText, count, type DealRecord, type GameScreen, type Paint, type ScreenContext } from '../games/screen.js';
import { completions, helpText, menuOf, turnLines } from './turn.js';

export interface PlaySetup {
  readonly game: Game;
  readonly table: TableConfig;
  readonly seed: string;
  /** The person's seat. */
  readonly seat: number;
  /** The bot at every other seat (null at the person's). */
  readonly entrants: readonly (Entrant | null)[];
  /** Whole matches, or single deals from a fresh score (`--deals`). */
  readonly unit: 'match' | 'deal';
  /** How many, and the index of the first (its group in a run of the same seed). */
  readonly count: number;
  readonly first: number;
  /** The bot that `h` asks when none is named. */
  readonly hint: string;
  /** Show every hand. */
  readonly showHands: boolean;
  /**
   * Chosen deals (`--boards`): match (deal) g starts with board g, as group g of a run
   * of these boards does; absent: every deal from the seed.
   */
  readonly boards?: readonly Board[];
}

/** The person: where the transcript goes and where answers come from. */
export interface Person {
  readonly paint: Paint;
  /**
   * A screen redrawn at each of the person's turns (a terminal): cleared, then the
   * table with what happened since their last move; and a pause after each deal.
   * Otherwise the transcript runs on.
   */
  readonly redraw: boolean;
  clear(): void;
  /** Print lines of the transcript. */
  say(text: string): void;
  /** The next line typed, or null when the input has ended. `completions` are the answers that make sense now. */
  ask(prompt: string, completions: readonly string[]): Promise<string | null>;
  /**
   * A person who draws the table themselves (the browser, src/serve/): the turn as
   * data, given instead of its screen lines, before the asking.
   */
  turn?(turn: Turn): void;
}

/** One of the person's turns, as data: what `turnLines` draws from it. */
export interface Turn {
  readonly screen: GameScreen;
  readonly obs: Observation;
  readonly menu: Menu;
  /** The score after the match's last deal (its record's `after`), null before one. */
  readonly after: unknown;
  readonly ctx: ScreenContext;
  /** The other seats' observations when every hand is shown, else none. */
  readonly others: readonly Observation[];
  /** The deal's title. */
  readonly heading: string;
}

export interface PlayHooks {
  /** Each finished deal's RECORD.md record, the person's seat labelled `human`. */
  record?(record: DealRecord): void;
  /** A bot by its label (`pimc`, `heuristic:aggression=0.8`, `./my-bot.js`), for hints. */
  resolveBot(label: string): Promise<Entrant>;
}

export interface PlayResult {
  /** `finished`: every match (deal) played; `quit`: the person typed q; `ended`: the input ended first. */
  readonly end: 'finished' | 'quit' | 'ended';
  /** Deals and matches (single deals with `--deals`) played to the end. */
  readonly deals: number;
  readonly matches: number;
}

/** The label of the person's seat in records. */
const HUMAN = 'human';

export function playSession(setup: PlaySetup, person: Person, hooks: PlayHooks): Promise<PlayResult> {
  return new Session(setup, person, hooks).run();
}

/** The person's answer to one decision, or how the asking ended. */
const QUIT = -1;
const ENDED = -2;
const UNDONE = -3;

/** The deal and every stream just before one of the person's moves. */
interface Snapshot {
  readonly state: State;
  readonly rngs: Rng[];
  move: string;
}

class Session {
  private readonly game: Game;
  private readonly screen: GameScreen;
  private readonly ctx: ScreenContext;
  private readonly labels: string[];
  private readonly state: State;
  private readonly match: Match;
  private readonly key: SeedKey;
  private readonly cards = new Rng();
  /** One stream per seat (the person's unused). */
  private readonly rngs: Rng[];
  private readonly bots: (Bot | null)[];
  private readonly hints: Hints;
  private readonly legal = newSets();
  private readonly snaps: Snapshot[] = [];
  /** Snapshots kept for reuse: states allocate. */
  private readonly spare: Snapshot[] = [];
  private undos = 0;
  /** The score after the last deal of this match, as its record wrote it (the game's screen reads it). */
  private after: unknown = null;
  private readonly dealValues: Float64Array;
  private readonly matchValues: Float64Array;
  private readonly results: Results;
  /** The current deal's title, and what happened since the person's last turn (for a redrawn screen). */
  private heading = '';
  private recent: string[] = [];
  private deals = 0;
  private matches = 0;

  constructor(
    private readonly setup: PlaySetup,
    private readonly person: Person,
    private readonly hooks: PlayHooks,
  ) {
    const { game, table, seat, entrants } = setup;
    this.game = game;
    this.screen = game.screen;
    this.labels = entrants.map((e) => e?.label ?? HUMAN);
    this.ctx = { seats: seatsOf(seat, this.labels, game.teams(table.seats)), paint: person.paint, rules: table.rules };
    this.state = game.newState(table);
    this.match = game.newMatch(table, { singleDeal: setup.unit === 'deal', index: 0 });
    this.match.recording = true;
    this.key = seedKey(setup.seed);
    this.hints = new Hints(game, table, seat, setup.seed, (label) => hooks.resolveBot(label));
    this.rngs = entrants.map(() => new Rng());
    this.bots = entrants.map((e, s) => (e === null ? null : this.build(e, s)));
    this.dealValues = new Float64Array(table.seats * game.dealMetrics.length);
    this.matchValues = new Float64Array(table.seats * game.matchMetrics.length);
    this.results = new Results(game.dealMetrics, setup.unit === 'match' ? game.matchMetrics : [], seat);
  }

  /** The bot of entrant `e` at `seat`, drawing on that seat's stream. */
  private build(e: Entrant, seat: number): Bot {
    const { game, table } = this.setup;
    try {
      return e.spec.create({
        game,
        table,
        seat,
        rng: this.rngs[seat],
        params: e.params,
        // Only a bot marked `cheats` sees the live state, as at the harness's table.
        ...(e.spec.cheats === true ? { state: this.state } : {}),
      });
    } catch (err) {
      throw new TafelError('bot-failed', `bot ${e.label} at seat ${seat} could not be built: ${firstLine(err)}`);
    }
  }

  async run(): Promise<PlayResult> {
    const { count, first, unit } = this.setup;
    const match = this.match;
    for (let g = first; g < first + count; g++) {
      match.reset(g);
      this.after = null;
      let last: DealRecord | null = null;
      while (!match.over) {
        const k = match.dealIndex;
        reseedCards(this.cards, this.key, g, k);
        for (let s = 0; s < this.rngs.length; s++) reseedBot(this.rngs[s], this.key, g, k, s, 0);
        const board = k === 0 ? this.setup.boards?.[g] : undefined;
        if (board) match.startBoard(this.state, board);
        else match.startDeal(this.state, this.cards);
        this.heading = this.title(g, k);
        this.say('\n' + this.heading);
        const end = await this.playDeal(g, k);
        if (end !== null) return this.finish(end, true);
        last = this.score(g, k);
        const more = !match.over || g + 1 < first + count;
        if (more && this.person.redraw) {
          const line = await this.person.ask('press Enter for the next deal (q to quit) ', ['q']);
          if (line === null || line.trim().toLowerCase() === 'q')
            return this.finish(line === null ? 'ended' : 'quit', false);
        }
      }
      this.matches++;
      const outcome = this.screen.matchOutcome(last!, this.ctx);
      if (unit === 'match') {
        match.matchMetrics(this.matchValues);
        this.say(this.ctx.paint.strong(`match over: ${outcome}`));
      }
      this.results.addMatch(unit === 'match' ? this.matchValues : null, `${unit} ${g}: ${outcome}`);
    }
    return this.finish('finished', false);
  }

  private say(text: string): void {
    this.person.say(text);
  }

  /** Tell what just happened; a redrawn screen shows it again until the person's next turn. */
  private tell(text: string): void {
    this.say(text);
    this.recent.push(text);
  }

  private title(g: number, k: number): string {
    const { game, unit, count, first, seat } = this.setup;
    const where =
      unit === 'deal' ? `deal ${g - first + 1} of ${count}` : `match ${g - first + 1} of ${count}, deal ${k + 1}`;
    const board = k === 0 && this.setup.boards ? ` · board ${this.setup.boards[g].id}` : '';
    return this.ctx.paint.strong(
      `=== ${game.name} · ${where}${board} · seed ${this.setup.seed} (group ${g}) · you are seat ${seat} ===`,
    );
  }

  /** Play the deal to its end; null, or how the person stopped. */
  private async playDeal(g: number, k: number): Promise<'quit' | 'ended' | null> {
    const state = this.state;
    const person = this.setup.seat;
    this.spare.push(...this.snaps.splice(0));
    this.undos = 0;
    this.recent = [];
    while (!state.isTerminal()) {
      const seat = state.toMove;
      const kind = state.decision;
      const n = state.legal(this.legal, 0);
      let move: number;
      if (seat !== person) move = this.botMove(seat, n, g, k);
      else if (n === 1 && kind === Decision.Card) move = setFirst(this.legal, 0);
      else {
        move = await this.ask(n, g, k);
        if (move === UNDONE) continue;
        if (move === QUIT) return 'quit';
        if (move === ENDED) return 'ended';
      }
      const obs = state.observe(person);
      const settled = this.screen.tricksDone(obs);
      state.apply(move);
      this.narrate(obs, kind, settled, n === 1 && seat === person);
    }
    return null;
  }

  private botMove(seat: number, n: number, g: number, k: number): number {
    const state = this.state;
    let move: number;
    try {
      move = this.bots[seat]!.act(state.observe(seat), this.legal, n);
    } catch (e) {
      throw this.failure(seat, g, k, `threw ${firstLine(e)}`);
    }
    if (!(move >>> 0 === move && move < CODE_LIMIT && setHas(this.legal, 0, move)))
      throw this.failure(seat, g, k, `played an illegal move (${String(move)})`);
    return move;
  }

  private failure(seat: number, g: number, k: number, what: string): TafelError {
    const where = this.setup.unit === 'deal' ? `deal ${g}` : `match ${g}, deal ${k}`;
    return new TafelError(
      'bot-failed',
      `bot ${this.labels[seat]} at seat ${seat} ${what} (seed ${this.setup.seed}, ${where})`,
    );
  }

  /** Tell the move just made (at the last ply), and the tricks it settled. */
  private narrate(obs: Observation, kind: DecisionKind, settledBefore: number, forced: boolean): void {
    const { screen, ctx } = this;
    const ply = obs.plies - 1;
    const seat = obs.moveSeat(ply);
    const move = obs.move(ply);
    const mine = seat === this.setup.seat;
    if (move === YES || move === NO) {
      this.tell(`  ${ctx.seats.name(seat)}: ${screen.answer(kind, move === YES)}`);
    } else {
      const lead = (cardsPlayed(obs).length - 1) % Math.max(1, screen.players(obs)) === 0;
      const verb = lead ? (mine ? 'lead' : 'leads') : mine ? 'play' : 'plays';
      const card =
        move === HIDDEN
          ? 'a card face down'
          : cardText(screen, obs, move, ctx.paint) + (screen.faceDown(obs, ply) ? ' face down' : '');
      this.tell(`  ${ctx.seats.name(seat)} ${verb} ${card}${forced ? ' (your only legal card)' : ''}`);
    }
    for (let t = settledBefore; t < screen.tricksDone(obs); t++) this.tell(`  ${settledTrick(screen, obs, t, ctx)}`);
  }

  /** Ask the person until they make a move (or undo, quit, or the input ends). */
  private async ask(n: number, g: number, k: number): Promise<number> {
    const { screen, ctx } = this;
    const obs = this.state.observe(this.setup.seat);
    const menu = menuOf(screen, obs, this.legal, n);
    if (this.person.redraw) {
      this.person.clear();
      this.say([this.heading, ...this.recent].join('\n'));
    }
    this.recent = [];
    const state = this.state;
    const others = this.setup.showHands
      ? Array.from({ length: state.seats }, (_, s) => state.observe(s)).filter((o) => o.seat !== obs.seat)
      : [];
    if (this.person.turn)
      this.person.turn({ screen, obs, menu, after: this.after, ctx, others, heading: this.heading });
    else this.say(turnLines(screen, obs, menu, this.after, ctx, others).join('\n'));
    const answers = completions(menu);
    for (;;) {
      const line = await this.person.ask('> ', answers);
      if (line === null) return ENDED;
      const a = parseAnswer(line, menu);
      switch (a.kind) {
        case 'move':
          this.keep(obs, a.move);
          return a.move;
        case 'illegal':
          this.say(`${a.name} is not legal here: ${screen.whyIllegal(obs, a.move, ctx)}`);
          break;
        case 'wrong':
          this.say(a.message);
          break;
        case 'help':
          this.say(helpText(menu, this.setup.hint));
          break;
        case 'hint':
          this.say(await this.hints.hint(a.bot ?? this.setup.hint, obs, this.legal, menu, g, k));
          break;
        case 'last': {
          const t = screen.tricksDone(obs) - 1;
          this.say(t < 0 ? 'no trick has been played yet in this deal' : `last ${settledTrick(screen, obs, t, ctx)}`);
          break;
        }
        case 'undo':
          if (this.snaps.length === 0) {
            this.say('nothing to undo: you have chosen no move yet in this deal (forced cards are not taken back)');
            break;
          }
          this.undo();
          return UNDONE;
        case 'quit':
          return QUIT;
      }
    }
  }

  /** Keep the deal and the streams as they are before the person's move. */
  private keep(obs: Observation, move: number): void {
    const snap = this.spare.pop() ?? {
      state: this.game.newState(this.setup.table),
      rngs: this.rngs.map(() => new Rng()),
      move: '',
    };
    snap.state.copyFrom(this.state);
    snap.rngs.forEach((r, s) => r.copyFrom(this.rngs[s]));
    snap.move = move === YES ? 'yes' : move === NO ? 'no' : this.screen.cardName(obs, move);
    this.snaps.push(snap);
  }

  private undo(): void {
    const snap = this.snaps.pop()!;
    const taken = this.state.observe(this.setup.seat).plies - snap.state.observe(this.setup.seat).plies;
    this.state.copyFrom(snap.state);
    this.rngs.forEach((r, s) => r.copyFrom(snap.rngs[s]));
    this.spare.push(snap);
    this.undos++;
    this.recent = [];
    const after = taken === 2 ? ' and the move after it' : taken > 2 ? ` and the ${taken - 1} moves after it` : '';
    this.tell(`undone: your ${snap.move}${after}`);
  }

  /** Score the finished deal: its record, the person's metrics, what happened. */
  private score(g: number, k: number): DealRecord {
    const { game, table, seed } = this.setup;
    const match = this.match;
    match.finishDeal(this.state);
    match.dealMetrics(this.state, this.dealValues);
    this.results.addDeal(this.dealValues);
    const record: DealRecord = {
      v: 1,
      game: game.name,
      rules: table.rules,
      seed,
      match: g,
      deal: k,
      seats: table.seats,
      bots: this.labels,
      ...(k === 0 && this.setup.boards ? { board: this.setup.boards[g].id } : {}),
      ...match.record(this.state),
      ...(this.undos > 0 ? { undos: this.undos } : {}),
      ...(this.setup.showHands ? { showHands: true } : {}),
    };
    this.hooks.record?.(record);
    this.deals++;
    this.after = record.after;
    this.say(labelled('deal over', this.screen.dealOutcome(record, this.ctx), this.ctx.paint).join('\n'));
    return record;
  }

  /** The result lines; `underway`: a deal was being played (it is not counted). */
  private finish(end: PlayResult['end'], underway: boolean): PlayResult {
    const { game, seed, seat, unit } = this.setup;
    const { paint } = this.ctx;
    const bots = [...new Set(this.labels.filter((_, s) => s !== seat))].join(', ');
    const lines = [
      '',
      `result: ${game.name}, seed ${seed}, you at seat ${seat}, bots ${bots}: ${count(this.matches, unit)} finished` +
        (unit === 'match' ? ` (${count(this.deals, 'deal')})` : ''),
    ];
    if (end !== 'finished')
      lines.push(
        `result: ${end === 'quit' ? 'you quit' : 'the input ended'} before the end` +
          (underway ? '; the deal under way is not counted' : ''),
      );
    lines.push(...this.results.lines());
    this.say(lines.map((l) => (l.startsWith('result:') ? paint.strong(l) : l)).join('\n'));
    return { end, deals: this.deals, matches: this.matches };
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}
