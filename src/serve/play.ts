/**
 * `tafel play` in the browser: the same session (src/play/session.ts: seeds, undo,
 * hints, the result lines), its person a web page. The page sends what a person types
 * at the terminal (a card's name, `y`, `n`, `u`, `h BOT`, `q`) and gets back the turn
 * as data (`TurnView`), the transcript, and the result lines once the session is over.
 *
 * A session does not belong to a connection: an answer is one request, and the session
 * then runs its bots to the person's next turn (or its end) before the reply. A client
 * that goes away leaves the session waiting; the oldest idle sessions are ended (their
 * input ends, as Ctrl-D ends `tafel play`) when too many are open.
 */
import { TafelError } from '../core/errors.js';
import { HIDDEN, type Game, type Observation } from '../games/game.js';
import { BUILTIN_BOTS } from '../../bots/registry.js';
import { resolveEntrant } from '../harness/table/lineup.js';
import { gameNamed, tableFor } from '../harness/run/parts.js';
import { SEED, SEED_RULE } from '../harness/run/flag-rules.js';
import { plain, displayOrder, ownHand, settledTrick, trickCards } from '../play/screen.js';
import { seatEntrants } from '../play/seating.js';
import { playSession, type Person, type PlayResult, type Turn } from '../play/session.js';
import type { GameScreen, Suit } from '../games/screen.js';

/** What the page asks for: `tafel play`'s flags. */
export interface PlayRequest {
  readonly game: string;
  readonly players?: number;
  readonly rules?: string;
  readonly seat?: number;
  readonly bots?: string;
  readonly seed?: string;
  readonly deals?: number;
  readonly matches?: number;
  readonly first?: number;
  readonly hint?: string;
  readonly showHands?: boolean;
}

/** A card as the page draws it: its RECORD.md name and its suit (`?` unseen). */
interface CardView {
  readonly name: string;
  readonly suit: Suit;
}

interface TurnView {
  readonly heading: string;
  readonly yesNo: boolean;
  readonly question: string | null;
  /** The legal moves' names (`yes`, `no` for a question). */
  readonly legal: readonly string[];
  readonly hand: readonly CardView[];
  /** The trick under way, in order of play; `winning` the seat ahead in it. */
  readonly trick: readonly { seat: string; card: CardView; faceDown: boolean }[];
  readonly winning: string | null;
  readonly lastTrick: string | null;
  readonly score: readonly string[];
  readonly deal: readonly string[];
  readonly taken: readonly string[];
  /** The other hands when every hand is shown. */
  readonly others: readonly { seat: string; hand: readonly CardView[] }[];
}

export interface PlayView {
  readonly id: string;
  /** Transcript lines from `from` on (the page keeps the earlier ones). */
  readonly from: number;
  readonly log: readonly string[];
  /** The person's turn, when the session waits for them. */
  readonly turn: TurnView | null;
  /** The `result:` lines once the session is over. */
  readonly result: readonly string[] | null;
  /** How the session ended (`finished`, `quit`, `ended`), or a failure's one line. */
  readonly end: string | null;
  readonly records: number;
}

/** Sessions kept at once; past this the longest idle one is ended. */
const MAX_SESSIONS = 16;
const MAX_COUNT = 1000;

function cardView(screen: GameScreen, obs: Observation, code: number): CardView {
  return { name: screen.cardName(obs, code), suit: code === HIDDEN ? '?' : screen.suit(obs, code) };
}

function turnView(t: Turn): TurnView {
  const { screen, obs, menu, ctx } = t;
  const done = screen.tricksDone(obs);
  const winning = screen.winning(obs);
  return {
    heading: t.heading,
    yesNo: menu.yesNo,
    question: menu.yesNo ? screen.question(obs, ctx) : null,
    legal: menu.legal.map((c) => c.name),
    hand: menu.held.map((c) => cardView(screen, obs, c.move)),
    trick: trickCards(screen, obs, done).map((c) => ({
      seat: ctx.seats.short(c.seat),
      card: cardView(screen, obs, c.code),
      faceDown: screen.faceDown(obs, c.ply),
    })),
    winning: winning < 0 ? null : ctx.seats.short(winning),
    lastTrick: done > 0 ? settledTrick(screen, obs, done - 1, ctx) : null,
    score: screen.scoreLines(obs, t.after, ctx),
    deal: screen.dealLines(obs, ctx),
    taken: screen.takenLines(obs, ctx),
    others: t.others.map((o) => ({
      seat: ctx.seats.short(o.seat),
      hand: displayOrder(screen, ownHand(o)).map((c) => cardView(screen, o, c)),
    })),
  };
}

/** A bot the page may name: a built-in one (`pimc`, `heuristic:aggression=0.8`), never a module path. */
export function builtinOnly(list: string, what: string): string {
  for (const part of list.split(',')) {
    // `label=bot:key=value`: the label is what comes before an `=` that precedes every `:`.
    const text = part.trim();
    const eq = text.indexOf('=');
    const colon = text.indexOf(':');
    const bot = (eq >= 0 && (colon < 0 || eq < colon) ? text.slice(eq + 1) : text).split(':')[0].trim();
    if (!BUILTIN_BOTS.some((b) => b.name === bot))
      throw new TafelError(
        'unknown-bot',
        `${what}: '${bot}' is not a built-in bot (the page plays built-in bots only)`,
      );
  }
  return list;
}

function whole(value: unknown, what: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw new TafelError(
      'bad-option',
      `${what} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`,
    );
  return value;
}

class WebSession {
  readonly log: string[] = [];
  turn: TurnView | null = null;
  result: string[] | null = null;
  end: string | null = null;
  readonly records: string[] = [];
  touched = Date.now();
  private lastSaid: string[] = [];
  private pending: ((line: string | null) => void) | null = null;
  private settled: (() => void)[] = [];

  constructor(readonly id: string) {}

  readonly person: Person = {
    paint: plain,
    redraw: false,
    clear: () => {},
    say: (text) => {
      this.lastSaid = text.split('\n');
      this.log.push(...this.lastSaid);
    },
    ask: (_prompt, _completions) =>
      new Promise<string | null>((resolve) => {
        this.pending = resolve;
        this.settle();
      }),
    turn: (t) => {
      this.turn = turnView(t);
    },
  };

  start(run: Promise<PlayResult>): void {
    run.then(
      (r) => {
        this.end = r.end;
        this.result = this.lastSaid.filter((l) => l.startsWith('result:'));
      },
      (e: unknown) => {
        this.end = `failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`;
      },
    );
    void run.finally(() => {
      this.turn = null;
      this.pending = null;
      this.settle();
    });
  }

  /** The session has reached the person's turn or its end. */
  private settle(): void {
    for (const f of this.settled.splice(0)) f();
  }

  get waiting(): boolean {
    return this.pending !== null;
  }

  /** Wait until the session asks or ends. */
  ready(): Promise<void> {
    return this.pending !== null || this.end !== null ? Promise.resolve() : new Promise((r) => this.settled.push(r));
  }

  /** Give the person's line; resolves once the session asks again or ends. */
  async answer(line: string): Promise<void> {
    const p = this.pending;
    if (!p) throw new TafelError('bad-option', this.end ? 'the session is over' : 'the session is not waiting');
    this.pending = null;
    this.touched = Date.now();
    const next = new Promise<void>((r) => this.settled.push(r));
    p(line);
    await next;
  }

  /** End the input (as Ctrl-D does): the session ends `ended`. */
  close(): void {
    const p = this.pending;
    this.pending = null;
    p?.(null);
  }

  view(from: number): PlayView {
    const start = Math.min(Math.max(0, from), this.log.length);
    return {
      id: this.id,
      from: start,
      log: this.log.slice(start),
      turn: this.pending ? this.turn : null,
      result: this.result,
      end: this.end,
      records: this.records.length,
    };
  }
}

export class PlayRooms {
  private readonly sessions = new Map<string, WebSession>();
  private next = 1;

  async open(req: PlayRequest): Promise<PlayView> {
    if (typeof req !== 'object' || req === null || typeof req.game !== 'string')
      throw new TafelError('bad-option', 'a play request names its game');
    const game: Game = gameNamed(req.game);
    const table = tableFor(game, whole(req.players, 'players', 1, 64), req.rules || undefined);
    const seat = whole(req.seat, 'seat', 0, table.seats - 1) ?? 0;
    const seed = req.seed ?? '1';
    if (!SEED.test(seed)) throw new TafelError('bad-seed', `seed '${seed}': ${SEED_RULE}`);
    const entrants = await seatEntrants(builtinOnly(req.bots ?? 'heuristic', 'bots'), game, table.seats, seat);
    const hintLabel = builtinOnly(req.hint ?? 'pimc', 'hint');
    const hintBot = await resolveEntrant(hintLabel, game);
    if (hintBot.spec.cheats)
      throw new TafelError('bad-option', `hint ${hintLabel}: it sees every hand, so it cannot advise a seat`);
    const deals = whole(req.deals, 'deals', 1, MAX_COUNT);
    const count = deals ?? whole(req.matches, 'matches', 1, MAX_COUNT) ?? 1;
    const first = whole(req.first, 'first', 0, 1e9) ?? 0;
    this.evict();
    const s = new WebSession(String(this.next++));
    this.sessions.set(s.id, s);
    s.start(
      playSession(
        {
          game,
          table,
          seed,
          seat,
          entrants,
          unit: deals ? 'deal' : 'match',
          count,
          first,
          hint: hintLabel,
          showHands: req.showHands === true,
        },
        s.person,
        {
          record: (r) => s.records.push(JSON.stringify(r)),
          resolveBot: (label) => resolveEntrant(builtinOnly(label, 'hint'), game),
        },
      ),
    );
    await s.ready();
    return s.view(0);
  }

  private get(id: string): WebSession {
    const s = this.sessions.get(id);
    if (!s) throw new TafelError('bad-option', `no play session ${id} (it ended, or the server restarted)`);
    return s;
  }

  view(id: string, from: number): PlayView {
    return this.get(id).view(from);
  }

  async answer(id: string, line: unknown, from: number): Promise<PlayView> {
    if (typeof line !== 'string' || line.length > 200 || line.includes('\n'))
      throw new TafelError('bad-option', 'an answer is one line of text, as typed at `tafel play`');
    const s = this.get(id);
    await s.answer(line);
    return s.view(from);
  }

  /** The finished deals' records, RECORD.md lines. */
  records(id: string): string {
    return this.get(id)
      .records.map((r) => r + '\n')
      .join('');
  }

  private evict(): void {
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = [...this.sessions.values()].sort((a, b) => a.touched - b.touched)[0];
      oldest.close();
      this.sessions.delete(oldest.id);
    }
  }

  closeAll(): void {
    for (const s of this.sessions.values()) s.close();
    this.sessions.clear();
  }
}
