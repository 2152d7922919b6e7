/**
 * The page of `tafel serve`: Play (a `tafel play` session driven by clicks). It talks to
 * the server's JSON API (src/serve/server.ts) and draws everything itself; no request
 * leaves the machine. The test contract: a playable card is `[data-card]` (`[data-legal]`
 * when legal), a yes/no answer `button[data-answer]`, the result `[data-result]`.
 */
import { cardSvg } from './cards.js';

interface GameInfo {
  name: string;
  minSeats: number;
  maxSeats: number;
  defaultSeats: number;
  variants: { key: string; description: string; default: unknown }[];
  bots: string[];
}
interface CardView {
  name: string;
  suit: string;
}
interface TurnView {
  heading: string;
  yesNo: boolean;
  question: string | null;
  legal: string[];
  hand: CardView[];
  trick: { seat: string; card: CardView; faceDown: boolean }[];
  winning: string | null;
  lastTrick: string | null;
  score: string[];
  deal: string[];
  taken: string[];
  others: { seat: string; hand: CardView[] }[];
}
interface PlayView {
  id: string;
  from: number;
  log: string[];
  turn: TurnView | null;
  result: string[] | null;
  end: string | null;
  records: number;
}

const app = document.getElementById('app')!;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

async function api<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(text.trim() || `${res.status}`);
  return JSON.parse(text) as T;
}

function card(c: CardView, attrs: Record<string, string> = {}, tag: 'button' | 'span' = 'span'): HTMLElement {
  const e = h(tag, { class: 'card', title: c.name, ...attrs });
  e.innerHTML = cardSvg(c.name, c.suit);
  return e;
}

function lines(label: string, text: readonly string[]): HTMLElement {
  return h('div', { class: 'row' }, h('span', { class: 'label' }, label), h('span', {}, text.join('\n')));
}

// ---- Play: the form, then the table ----

let games: GameInfo[] = [];

function field(label: string, input: HTMLElement): HTMLElement {
  return h('label', {}, h('span', {}, label), input);
}

function playForm(): void {
  const game = h('select', { name: 'game' }, ...games.map((g) => h('option', { value: g.name }, g.name)));
  const players = h('input', { name: 'players', type: 'number', min: '1' });
  const seat = h('input', { name: 'seat', type: 'number', min: '0', value: '0' });
  const bots = h('input', { name: 'bots', value: 'heuristic' });
  const rules = h('input', { name: 'rules', placeholder: 'key=value,...' });
  const seed = h('input', { name: 'seed', value: '1' });
  const unit = h(
    'select',
    { name: 'unit' },
    h('option', { value: 'deals' }, 'deals'),
    h('option', { value: 'matches' }, 'matches'),
  );
  const count = h('input', { name: 'count', type: 'number', min: '1', value: '1' });
  const showHands = h('input', { name: 'showHands', type: 'checkbox' });
  const hint = h('input', { name: 'hint', value: 'pimc' });
  const known = h('p', { class: 'note' });
  const sync = (): void => {
    const g = games.find((x) => x.name === game.value)!;
    players.value = String(g.defaultSeats);
    players.min = String(g.minSeats);
    players.max = String(g.maxSeats);
    known.textContent = `bots: ${g.bots.join(', ')} · rules: ${g.variants.map((v) => `${v.key}=${String(v.default)}`).join(', ')}`;
  };
  game.addEventListener('change', sync);
  sync();
  const error = h('p', { class: 'error', role: 'alert' });
  const go = h('button', { type: 'submit', 'data-action': 'start' }, 'Play');
  const form = h(
    'form',
    { class: 'setup' },
    field('game', game),
    field('players', players),
    field('your seat', seat),
    field('bots', bots),
    field('rules', rules),
    field('seed', seed),
    field('play', h('span', { class: 'pair' }, count, unit)),
    field('hint bot', hint),
    field('show every hand', showHands),
    known,
    go,
    error,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const n = Number(count.value);
    const req = {
      game: game.value,
      players: Number(players.value),
      seat: Number(seat.value),
      bots: bots.value,
      rules: rules.value,
      seed: seed.value,
      hint: hint.value,
      showHands: showHands.checked,
      ...(unit.value === 'deals' ? { deals: n } : { matches: n }),
    };
    api<PlayView>('/api/play', req).then(
      (v) => new Table(v).draw(),
      (e: Error) => (error.textContent = e.message),
    );
  });
  app.replaceChildren(h('h2', {}, 'Play'), form);
}

class Table {
  private log: string[] = [];
  private busy = false;
  private message = '';

  constructor(private view: PlayView) {
    this.log = view.log.slice();
  }

  private async send(line: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    // Tests wait for this to go before the next click.
    document.body.dataset.busy = '1';
    try {
      const before = this.log.length;
      const v = await api<PlayView>(`/api/play/${this.view.id}/answer`, { line, from: before });
      this.log.push(...v.log);
      this.view = v;
      // What the session said in answer (a refusal, a hint), shown until the next move.
      this.message = v.log
        .filter((l) => !l.startsWith('  ') && !l.startsWith('===') && l !== '')
        .slice(-3)
        .join('\n');
    } catch (e) {
      this.message = (e as Error).message;
    } finally {
      this.busy = false;
    }
    this.draw();
    delete document.body.dataset.busy;
  }

  draw(): void {
    const v = this.view;
    const t = v.turn;
    const parts: HTMLElement[] = [];
    if (t) {
      parts.push(h('h2', { class: 'heading' }, t.heading.replace(/^=+ | =+$/g, '')));
      parts.push(h('div', { class: 'info' }, lines('score', t.score), lines('deal', t.deal), lines('taken', t.taken)));
      const trick = h('div', { class: 'trick', 'aria-label': 'the trick under way' });
      for (const p of t.trick)
        trick.append(
          h(
            'figure',
            { class: p.seat === t.winning ? 'played winning' : 'played', 'data-played': p.card.name },
            card(p.card),
            h('figcaption', {}, p.seat + (p.faceDown ? ' (face down)' : '')),
          ),
        );
      if (t.trick.length === 0) trick.append(h('p', { class: 'note' }, 'no card on the table'));
      parts.push(trick);
      if (t.lastTrick) parts.push(h('p', { class: 'note last' }, 'last ' + t.lastTrick));
      for (const o of t.others)
        parts.push(h('div', { class: 'other' }, h('span', { class: 'label' }, o.seat), ...o.hand.map((c) => card(c))));
      const hand = h('div', { class: 'hand', 'aria-label': 'your hand' });
      for (const c of t.hand) {
        const legal = !t.yesNo && t.legal.includes(c.name);
        const b = card(c, { 'data-card': c.name, ...(legal ? { 'data-legal': '' } : {}), type: 'button' }, 'button');
        b.addEventListener('click', () => void this.send(c.name));
        hand.append(b);
      }
      parts.push(hand);
      if (t.yesNo) {
        const yes = h('button', { 'data-answer': 'yes', type: 'button' }, 'yes');
        const no = h('button', { 'data-answer': 'no', type: 'button' }, 'no');
        yes.addEventListener('click', () => void this.send('y'));
        no.addEventListener('click', () => void this.send('n'));
        parts.push(h('div', { class: 'question' }, h('p', {}, t.question ?? ''), yes, no));
      }
      const tools = h('div', { class: 'tools' });
      const hintBot = h('input', { 'aria-label': 'hint bot', placeholder: 'hint bot (default)', size: '14' });
      for (const [label, line] of [
        ['hint', 'h'],
        ['undo', 'u'],
        ['quit', 'q'],
      ] as const) {
        const b = h('button', { type: 'button', 'data-action': label }, label);
        b.addEventListener(
          'click',
          () => void this.send(line === 'h' && hintBot.value.trim() ? `h ${hintBot.value.trim()}` : line),
        );
        tools.append(b);
      }
      tools.append(hintBot);
      parts.push(tools);
      if (this.message) parts.push(h('pre', { class: 'message', role: 'status' }, this.message));
    }
    if (v.end !== null) {
      parts.push(h('h2', {}, v.end === 'finished' ? 'Session over' : `Session ended (${v.end})`));
      if (v.result) parts.push(h('pre', { 'data-result': '' }, v.result.join('\n')));
      const again = h('button', { type: 'button', 'data-action': 'new' }, 'new session');
      again.addEventListener('click', playForm);
      parts.push(h('p', {}, again));
    }
    if (v.records > 0)
      parts.push(
        h(
          'p',
          {},
          h(
            'a',
            {
              href: `/api/play/${v.id}/records`,
              download: `tafel-play-${v.id}.jsonl`,
              'data-records': String(v.records),
            },
            `records of the ${v.records} finished deal${v.records === 1 ? '' : 's'} (RECORD.md lines)`,
          ),
        ),
      );
    const log = h('pre', { class: 'log' }, this.log.join('\n'));
    parts.push(h('details', {}, h('summary', {}, 'transcript'), log));
    app.replaceChildren(...parts);
  }
}

// ---- Replay: a record file's or run database's deals, stepped through trick by trick ----

interface FileInfo {
  index: number;
  name: string;
}
interface DealEntry {
  line: number;
  game: string;
  seed: string;
  match: number;
  deal: number;
  rotation?: number;
  bots: string[];
}
interface DbDeal {
  run: number;
  seed: string;
  grp: number;
  rotation: number;
  match: number;
  deal: number;
}
interface Trick {
  leader: number;
  cards: string[];
  winner: number;
  taker: number;
  points?: number;
}
interface DealRecord {
  game: string;
  seed: string;
  match: number;
  deal: number;
  rotation?: number;
  seats: number;
  bots: string[];
  dealer?: number;
  players?: number[];
  trump?: string | null;
  turnup?: string | null;
  hands: string[][];
  tricks: Trick[];
  points?: (number | null)[];
  before?: unknown;
  after?: unknown;
  events?: unknown;
}
interface Decision {
  ply: number;
  seat: number;
  decision: string;
  name: string;
  trick: number;
}
interface MoveValue {
  move: string;
  value: number | null;
  visits?: number;
}
interface Analysis {
  ply: number;
  seat: number;
  decision: string;
  played: string;
  solver: {
    meaning: string;
    more: boolean;
    exact: boolean;
    depth: number | null;
    nodes: number;
    ms: number;
    values: MoveValue[];
  };
  bot: { name: string; meaning: string; chosen: string; ms: number; values: MoveValue[] } | null;
}

/** A card's suit from its RECORD.md name: `T21` a tarock, else its last letter. */
function suitOf(name: string): string {
  if (/^T\d+$/.test(name)) return 'T';
  const s = name.slice(-1);
  return 'CSHD'.includes(s) ? s : '?';
}

/** What the scoring state's and events' fields are called in words (RECORD.md, per game). */
const WORDS: Record<string, string> = {
  rungs: 'rungs left',
  carry: 'carried',
  frame: 'frame marks',
  game: 'game',
  phase: 'phase',
  slate: 'marks on the slate',
  in: 'still in',
  partie: 'Partie',
  totals: 'points in this Partie',
  striche: 'Striche',
  pot: 'pot',
  balances: 'balances',
  type: '',
  team: 'team',
  seat: 'seat',
  n: 'n',
  why: 'why',
  loser: 'loser',
  marks: 'marks',
  points: 'points',
  winner: 'winner',
  balance: 'balance',
};

/** Viersche's fields counted by team, not by seat (its ladder). */
const BY_TEAM = new Set(['rungs', 'frame']);

/** A value of a record's scoring state or event in words: `rungs left: team 0 4, team 1 3`. */
function words(value: unknown, game: string, key = ''): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) {
    if (value.every((x) => typeof x === 'number' || x === null)) {
      if (key === 'in' || key === 'tied' || key === 'winner')
        return value.length ? `seats ${value.join(', ')}` : 'nobody';
      const who = game === 'viersche' && BY_TEAM.has(key) ? 'team' : 'seat';
      return value.map((x, i) => `${who} ${i} ${x ?? '-'}`).join(', ');
    }
    return value.map((x) => words(x, game)).join('; ');
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const head = typeof o.type === 'string' ? `${o.type}` : '';
    const rest = Object.entries(o)
      .filter(([k]) => k !== 'type')
      .map(([k, v]) => `${WORDS[k] ?? k}: ${words(v, game, k)}`);
    return [head, rest.join(', ')].filter(Boolean).join(' — ');
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '?';
}

function eventLines(events: unknown, game: string): string[] {
  return Array.isArray(events) && events.length ? events.map((e) => words(e, game)) : ['none'];
}

/** The source last chosen in Replay: a records file (`0`) or a database (`db0`). */
const picked = { source: '' };

async function replayList(files: FileInfo[], dbs: FileInfo[]): Promise<void> {
  const source = h(
    'select',
    { name: 'file' },
    ...files.map((f) => h('option', { value: String(f.index) }, f.name)),
    ...dbs.map((d) => h('option', { value: `db${d.index}` }, `${d.name} (database)`)),
  );
  if (picked.source) source.value = picked.source;
  const seed = h('input', { name: 'seed', placeholder: 'any' });
  const match = h('input', { name: 'match', type: 'number', min: '0', placeholder: 'any' });
  const deal = h('input', { name: 'deal', type: 'number', min: '0', placeholder: 'any' });
  const rotation = h('input', { name: 'rotation', type: 'number', min: '0', placeholder: 'any' });
  const sql = h('textarea', {
    name: 'sql',
    rows: '2',
    placeholder: 'SELECT grp, rotation, deal FROM deals WHERE ...  (its rows must name deals)',
  });
  const ask = h('button', { type: 'button', 'data-query': '' }, 'query');
  const sqlRow = h('div', { class: 'sql' }, sql, ask);
  const list = h('div', { class: 'deals' });
  const error = h('p', { class: 'error', role: 'alert' });
  const isDb = () => source.value.startsWith('db');
  const index = () => (isDb() ? source.value.slice(2) : source.value);
  const matchLabel = h('span', {}, 'match (group)');
  const show = (): void => {
    picked.source = source.value;
    sqlRow.hidden = !isDb();
    matchLabel.textContent = isDb() ? 'group' : 'match (group)';
  };
  source.addEventListener('change', () => {
    show();
    void find();
  });
  const open = (src: string): void => {
    api<DealRecord>(`/api/replay/${isDb() ? 'db-record' : 'record'}?${src}`).then(
      (rec) => new Replay(rec, src).draw(),
      (e: Error) => (error.textContent = e.message),
    );
  };
  const dbButton = (d: DbDeal): HTMLElement => {
    const src = `db=${index()}&run=${d.run}&grp=${d.grp}&rotation=${d.rotation}&deal=${d.deal}`;
    const b = h(
      'button',
      { type: 'button', 'data-deal': src },
      `seed ${d.seed} · group ${d.grp} · rotation ${d.rotation} · match ${d.match} · deal ${d.deal}`,
    );
    b.addEventListener('click', () => open(src));
    return b;
  };
  const counted = (matched: number, listed: number): HTMLElement =>
    h(
      'p',
      { class: 'note' },
      `${matched} deal${matched === 1 ? '' : 's'}${matched > listed ? `, the first ${listed} listed` : ''}`,
    );
  const find = async (): Promise<void> => {
    try {
      if (isDb()) {
        const q = new URLSearchParams({
          db: index(),
          seed: seed.value,
          group: match.value,
          deal: deal.value,
          rotation: rotation.value,
        });
        const r = await api<{ deals: DbDeal[]; matched: number }>(`/api/replay/db-deals?${q.toString()}`);
        error.textContent = '';
        list.replaceChildren(counted(r.matched, r.deals.length), ...r.deals.map(dbButton));
        return;
      }
      const q = new URLSearchParams({
        file: index(),
        seed: seed.value,
        match: match.value,
        deal: deal.value,
        rotation: rotation.value,
      });
      const r = await api<{ deals: DealEntry[]; matched: number }>(`/api/replay/deals?${q.toString()}`);
      error.textContent = '';
      list.replaceChildren(
        counted(r.matched, r.deals.length),
        ...r.deals.map((d) => {
          const src = `file=${index()}&line=${d.line}`;
          const b = h(
            'button',
            { type: 'button', 'data-line': String(d.line) },
            `${d.game} · seed ${d.seed} · match ${d.match} · deal ${d.deal}${d.rotation !== undefined ? ` · rotation ${d.rotation}` : ''} · ${d.bots.join(', ')}`,
          );
          b.addEventListener('click', () => open(src));
          return b;
        }),
      );
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  };
  ask.addEventListener('click', () => {
    api<{ columns: string[]; rows: unknown[][]; deals: DbDeal[]; more: boolean }>('/api/replay/db-query', {
      db: Number(index()),
      sql: sql.value,
    }).then(
      (r) => {
        error.textContent = '';
        const table = h(
          'table',
          { class: 'result' },
          h('tr', {}, h('th', {}, ''), ...r.columns.map((c) => h('th', {}, c))),
          ...r.rows.map((row, i) =>
            h(
              'tr',
              {},
              h('td', {}, dbButton(r.deals[i])),
              ...row.map((v) => h('td', {}, typeof v === 'string' ? v : JSON.stringify(v))),
            ),
          ),
        );
        for (const b of table.querySelectorAll('td > button')) b.textContent = 'open';
        list.replaceChildren(
          h(
            'p',
            { class: 'note' },
            `${r.rows.length} row${r.rows.length === 1 ? '' : 's'}${r.more ? ' (the first)' : ''}`,
          ),
          table,
        );
      },
      (e: Error) => (error.textContent = e.message),
    );
  });
  const form = h(
    'form',
    { class: 'setup' },
    field('from', source),
    field('seed', seed),
    h('label', {}, matchLabel, match),
    field('deal', deal),
    field('rotation', rotation),
    h('button', { type: 'submit' }, 'find'),
    sqlRow,
    error,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void find();
  });
  show();
  app.replaceChildren(h('h2', {}, 'Replay'), form, list);
  await find();
}

/** The bot whose values Analysis shows, kept from one deal to the next. */
const analyst = { bot: 'pimc', budget: '10000000' };

class Replay {
  /** Tricks shown complete: 0 (the deal as dealt) to every trick. */
  private step = 0;
  /** The seat whose view is shown, or -1 for every hand. */
  private view = -1;
  private decisions: Decision[] | null = null;
  /** The decision analysed (its ply), and what came back. */
  private ply = -1;
  private analysis: Analysis | null = null;
  private analysisError = '';
  private asking = false;

  /** `src`: the query naming the deal to the server (`file=0&line=3`, `db=0&run=..`). */
  constructor(
    private readonly rec: DealRecord,
    private readonly src: string,
  ) {
    api<Decision[]>(`/api/replay/decisions?${src}`).then(
      (d) => {
        this.decisions = d;
        this.draw();
      },
      (e: Error) => {
        this.analysisError = e.message;
        this.draw();
      },
    );
  }

  private analyse(ply: number): void {
    this.ply = ply;
    this.analysis = null;
    this.analysisError = '';
    this.asking = true;
    document.body.setAttribute('data-busy', '');
    this.draw();
    const q = new URLSearchParams({ ply: String(ply), bot: analyst.bot, budget: analyst.budget });
    api<Analysis>(`/api/analysis?${this.src}&${q.toString()}`)
      .then(
        (a) => {
          if (this.ply === ply) this.analysis = a;
        },
        (e: Error) => (this.analysisError = e.message),
      )
      .finally(() => {
        this.asking = false;
        document.body.removeAttribute('data-busy');
        this.draw();
      });
  }

  /** The Analysis panel: the decisions of the next trick, and the values of the one picked. */
  private panel(): HTMLElement {
    const box = h('section', { class: 'analysis', 'aria-label': 'analysis' }, h('h3', {}, 'Analysis'));
    const bot = h('input', { name: 'bot', value: analyst.bot, size: '18', 'aria-label': 'bot' });
    bot.addEventListener('change', () => (analyst.bot = bot.value.trim()));
    const budget = h('input', { name: 'budget', value: analyst.budget, size: '10', 'aria-label': 'solver budget' });
    budget.addEventListener('change', () => (analyst.budget = budget.value.trim()));
    box.append(h('div', { class: 'tools' }, field('bot (empty: none)', bot), field('solver nodes', budget)));
    const here = (this.decisions ?? []).filter((d) => d.trick === this.step);
    const row = h('div', { class: 'tools decisions' });
    for (const d of here) {
      const b = h(
        'button',
        { type: 'button', 'data-ply': String(d.ply), ...(d.ply === this.ply ? { class: 'on' } : {}) },
        `seat ${d.seat} ${d.decision === 'card' ? '' : d.decision + ' '}${d.name}`,
      );
      if (this.asking) b.setAttribute('disabled', '');
      b.addEventListener('click', () => this.analyse(d.ply));
      row.append(b);
    }
    if (this.decisions === null && !this.analysisError) row.append(h('span', { class: 'note' }, 'reading the deal...'));
    else if (here.length === 0 && this.decisions)
      row.append(h('span', { class: 'note' }, 'no decision after this trick'));
    else row.prepend(h('span', { class: 'label' }, 'analyse'));
    box.append(row);
    if (this.asking) box.append(h('p', { class: 'note' }, 'searching...'));
    if (this.analysisError) box.append(h('p', { class: 'error', role: 'alert' }, this.analysisError));
    const a = this.analysis;
    if (!a) return box;
    const bots = new Map((a.bot?.values ?? []).map((v) => [v.move, v]));
    const known = a.solver.values.flatMap((v) => (v.value === null ? [] : [v.value]));
    const top = a.solver.more ? Math.max(...known) : Math.min(...known);
    const fmt = (x: number | null | undefined): string =>
      x === null || x === undefined ? '–' : String(Math.round(x * 100) / 100);
    const visits = a.bot?.values.some((v) => v.visits !== undefined) ?? false;
    // The moves of this trick before the decision (the hands above are as the trick began).
    const before = (this.decisions ?? [])
      .filter((d) => d.trick === this.step && d.ply < a.ply)
      .map((d) => `seat ${d.seat} ${d.decision === 'card' ? '' : d.decision + ' '}${d.name}`);
    // One cell per legal move: the card (or answer), the solver's value, the bot's.
    const grid = h('div', {
      class: 'values',
      'data-analysis': '',
      'data-ply': String(a.ply),
      'data-exact': String(a.solver.exact),
    });
    for (const v of a.solver.values) {
      const b = bots.get(v.move);
      const classes = ['move', v.move === a.played ? 'played' : '', v.value === top ? 'best' : ''];
      grid.append(
        h(
          'div',
          {
            class: classes.filter(Boolean).join(' '),
            'data-analysis-card': v.move,
            'data-value': v.value === null ? '' : String(v.value),
            ...(b ? { 'data-bot-value': b.value === null ? '' : String(b.value) } : {}),
            ...(b?.visits !== undefined ? { 'data-visits': String(b.visits) } : {}),
            ...(a.bot?.chosen === v.move ? { 'data-bot-choice': '' } : {}),
          },
          a.decision === 'card' ? card({ name: v.move, suit: suitOf(v.move) }) : h('span', { class: 'answer' }, v.move),
          h('span', { class: 'solver-value' }, fmt(v.value)),
          ...(a.bot ? [h('span', { class: 'bot-value' }, fmt(b?.value))] : []),
          ...(visits ? [h('span', { class: 'visits' }, `${b?.visits ?? 0} visits`)] : []),
          h(
            'span',
            { class: 'marks' },
            [v.move === a.played ? 'played' : '', a.bot?.chosen === v.move ? `${a.bot.name}'s choice` : '']
              .filter(Boolean)
              .join(' · '),
          ),
        ),
      );
    }
    box.append(
      h(
        'p',
        {},
        `${before.length ? `After ${before.join(', ')}: ` : ''}seat ${a.seat}, ${a.decision === 'card' ? 'a card' : a.decision}; played ${a.played}. Solver ${
          a.solver.exact
            ? '(exact)'
            : `(estimate, ${a.solver.depth ?? 'a playout'}${a.solver.depth ? ' tricks deep' : ''})`
        } in green when best${a.bot ? `, ${a.bot.name} below it` : ''}.`,
      ),
      grid,
      h(
        'p',
        { class: 'note' },
        `solver: ${a.solver.meaning}; ${a.solver.nodes.toLocaleString('en')} nodes, ${(a.solver.ms / 1000).toFixed(2)} s`,
      ),
    );
    if (a.bot)
      box.append(h('p', { class: 'note' }, `${a.bot.name}: ${a.bot.meaning}; ${(a.bot.ms / 1000).toFixed(2)} s`));
    return box;
  }

  draw(): void {
    const r = this.rec;
    const tricks = r.tricks ?? [];
    const played = new Set(tricks.slice(0, this.step).flatMap((t) => t.cards));
    const parts: HTMLElement[] = [];
    parts.push(
      h(
        'h2',
        { class: 'heading' },
        `${r.game} · seed ${r.seed} · match ${r.match} · deal ${r.deal}${r.rotation !== undefined ? ` · rotation ${r.rotation}` : ''}`,
      ),
    );
    const info = [`dealer ${r.dealer ?? '?'}`];
    if (r.trump !== undefined) info.push(`trump ${r.trump ?? 'none'}${r.turnup ? ` (turn-up ${r.turnup})` : ''}`);
    parts.push(
      h('div', { class: 'info' }, lines('deal', [info.join(' · ')]), lines('before', [words(r.before, r.game)])),
    );
    const prev = h('button', { type: 'button', 'data-step': 'prev' }, '◀ prev');
    const next = h('button', { type: 'button', 'data-step': 'next' }, 'next ▶');
    if (this.step === 0) prev.setAttribute('disabled', '');
    if (this.step === tricks.length) next.setAttribute('disabled', '');
    prev.addEventListener('click', () => {
      this.step = Math.max(0, this.step - 1);
      this.draw();
    });
    next.addEventListener('click', () => {
      this.step = Math.min(tricks.length, this.step + 1);
      this.draw();
    });
    const seatPick = h(
      'select',
      { name: 'view', 'aria-label': 'whose view' },
      h('option', { value: '-1' }, 'every hand'),
      ...r.bots.map((b, s) => h('option', { value: String(s) }, `seat ${s} (${b}) only`)),
    );
    seatPick.value = String(this.view);
    seatPick.addEventListener('change', () => {
      this.view = Number(seatPick.value);
      this.draw();
    });
    const back = h('button', { type: 'button' }, 'other deals');
    back.addEventListener('click', () => void start('replay'));
    parts.push(
      h(
        'div',
        { class: 'tools' },
        prev,
        next,
        h('span', { 'data-position': String(this.step) }, `trick ${this.step} of ${tricks.length}`),
        seatPick,
        back,
      ),
    );
    const trick = h('div', { class: 'trick', 'aria-label': 'the last trick shown' });
    if (this.step > 0) {
      const t = tricks[this.step - 1];
      // Cards go round the seats taking part, from the leader.
      const order = r.players ?? Array.from({ length: r.seats }, (_, s) => s);
      const lead = Math.max(0, order.indexOf(t.leader));
      t.cards.forEach((c, i) => {
        const seat = order[(lead + i) % order.length];
        trick.setAttribute('data-trick', t.cards.join(' '));
        trick.append(
          h(
            'figure',
            { class: seat === t.winner ? 'played winning' : 'played', 'data-played': c },
            card({ name: c, suit: suitOf(c) }),
            h('figcaption', {}, `seat ${seat}`),
          ),
        );
      });
      trick.append(
        h(
          'p',
          { class: 'note' },
          `-> seat ${t.taker}${t.winner !== t.taker ? ` (won by seat ${t.winner})` : ''}${t.points !== undefined ? `, ${t.points} points` : ''}`,
        ),
      );
    } else trick.append(h('p', { class: 'note' }, 'as dealt'));
    parts.push(trick);
    r.hands.forEach((hand, s) => {
      if (hand.length === 0) return;
      const left = hand.filter((c) => !played.has(c));
      const open = this.view < 0 || this.view === s;
      const shown = open
        ? left.map((c) => card({ name: c, suit: suitOf(c) }))
        : left.map(() => card({ name: '??', suit: '?' }));
      const out = r.players !== undefined && !r.players.includes(s);
      parts.push(
        h(
          'div',
          { class: 'other', 'data-seat': String(s), ...(out ? { 'data-out': '' } : {}) },
          h('span', { class: 'label' }, `seat ${s} ${r.bots[s] ?? ''}${out ? ' (out)' : ''}`),
          ...shown,
        ),
      );
    });
    if (this.step === tricks.length)
      parts.push(
        h(
          'div',
          { class: 'info', 'data-end': '' },
          lines('points', [words(r.points, r.game, 'points')]),
          lines('events', eventLines(r.events, r.game)),
          lines('after', [words(r.after, r.game)]),
        ),
      );
    parts.push(this.panel());
    app.replaceChildren(...parts);
  }
}

// ---- the two views ----

let files: FileInfo[] = [];
let dbs: FileInfo[] = [];

async function start(view: 'play' | 'replay'): Promise<void> {
  for (const b of document.querySelectorAll<HTMLButtonElement>('nav button'))
    b.classList.toggle('on', b.dataset.view === view);
  if (view === 'replay') await replayList(files, dbs);
  else playForm();
}

/** The view the address names (`#replay`), so that back and forward move between the views. */
function viewOfHash(): 'play' | 'replay' {
  return location.hash === '#replay' && files.length + dbs.length > 0 ? 'replay' : 'play';
}

Promise.all([
  api<GameInfo[]>('/api/games'),
  api<FileInfo[]>('/api/replay/files'),
  api<FileInfo[]>('/api/replay/dbs'),
]).then(
  ([g, f, d]) => {
    games = g;
    files = f;
    dbs = d;
    const nav = document.querySelector('nav')!;
    for (const view of ['play', 'replay'] as const) {
      if (view === 'replay' && files.length + dbs.length === 0) continue;
      const b = h('button', { type: 'button', 'data-view': view }, view === 'play' ? 'Play' : 'Replay');
      b.addEventListener('click', () => {
        if (location.hash === `#${view}`) void start(view);
        else location.hash = view;
      });
      nav.append(b);
    }
    window.addEventListener('hashchange', () => void start(viewOfHash()));
    void start(viewOfHash());
  },
  (e: Error) => app.replaceChildren(h('p', { class: 'error' }, e.message)),
);
