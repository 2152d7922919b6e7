/** Playing `tafel play` sessions in the test process, with a person driven by a policy. */
import { gameNamed, tableFor } from '../src/harness/run/parts.js';
import { resolveEntrant } from '../src/harness/table/lineup.js';
import { seatEntrants } from '../src/play/seating.js';
import { plain } from '../src/play/screen.js';
import type { DealRecord } from '../src/games/screen.js';
import { playSession, type Person, type PlayResult } from '../src/play/session.js';

/** Answers from a policy that reads the transcript so far; every prompt and answer goes into it, as on a pipe. */
export class Driver implements Person {
  readonly paint = plain;
  readonly redraw = false;
  text = '';
  asked = 0;

  constructor(private readonly policy: (d: Driver) => string | null) {}

  clear(): void {}
  say(text: string): void {
    this.text += text + '\n';
  }
  ask(prompt: string): Promise<string | null> {
    this.asked++;
    const answer = this.policy(this);
    this.text += prompt + (answer ?? '') + '\n';
    return Promise.resolve(answer);
  }

  /** The last line of the transcript. */
  get last(): string {
    const t = this.text.trimEnd();
    return t.slice(t.lastIndexOf('\n') + 1);
  }

  /** The card names of the last `hand` line and of the last list of legal cards. */
  get hand(): string[] {
    return names(lastLine(this.text, 'hand      ')).filter((x) => x !== '|');
  }
  get legal(): string[] {
    return names(lastLine(this.text, 'your card ')).filter((_, i) => i % 2 === 1);
  }
  /** Whether the screen of a new decision has just been shown (it ends with the commands). */
  get fresh(): boolean {
    return this.last.trim().startsWith('? help');
  }
  /** Whether the person leads to the trick now (the screen shows no trick under way). */
  get leading(): boolean {
    return this.text.lastIndexOf('\ntrick ') < this.text.lastIndexOf('\ntaken ');
  }
  /** Whether the person is being asked a yes/no question now. */
  get question(): boolean {
    return this.text.lastIndexOf('\nquestion  ') > this.text.lastIndexOf('\nyour card ');
  }
}

function lastLine(text: string, label: string): string {
  const at = text.lastIndexOf('\n' + label);
  if (at < 0) return '';
  const end = text.indexOf('\n', at + 1);
  return text.slice(at + 1 + label.length, end < 0 ? undefined : end);
}

function names(line: string): string[] {
  return line.trim().split(/\s+/).filter(Boolean);
}

/** Play as the `heuristic` bot would at the person's seat: ask it for a hint, then play the hint. */
export function heuristicPolicy(d: Driver): string {
  const hint = /^hint from heuristic: (\S+)/.exec(d.last);
  return hint ? hint[1] : 'h heuristic';
}

export interface Game {
  game: string;
  seat: number;
  bots: string;
  seed?: string;
  rules?: string;
  players?: number;
  unit?: 'deal' | 'match';
  count?: number;
  first?: number;
  showHands?: boolean;
}

export async function play(
  g: Game,
  policy: (d: Driver) => string | null,
): Promise<{ result: PlayResult; text: string; records: DealRecord[] }> {
  const game = gameNamed(g.game);
  const table = tableFor(game, g.players, g.rules);
  const entrants = await seatEntrants(g.bots, game, table.seats, g.seat);
  const records: DealRecord[] = [];
  const driver = new Driver(policy);
  const result = await playSession(
    {
      game,
      table,
      seed: g.seed ?? '1',
      seat: g.seat,
      entrants,
      unit: g.unit ?? 'deal',
      count: g.count ?? 1,
      first: g.first ?? 0,
      hint: 'heuristic',
      showHands: g.showHands === true,
    },
    driver,
    { record: (r) => records.push(r), resolveBot: (label) => resolveEntrant(label, game) },
  );
  return { result, text: driver.text, records };
}
