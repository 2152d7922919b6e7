/**
 * `tafel serve`'s Analysis and its replay of run databases, through the server and in
 * Chromium: the solver's values of a decision of each game equal the solver's own
 * (bots/solver, asked directly here on the state rebuilt from the record); pimc's and
 * ismcts's values are there and their best is what `act` plays from the same stream;
 * a deal of a `--db` run, picked by seed and group and by a query, steps to the end with
 * the tricks of the same run's `--records`; bad requests get a status and one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../bench/chromium.js';
import { ROOT, serve, start, tafel, tmpDir } from './cli-helpers.js';

const GAMES = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'] as const;
const dist = (p: string) => join(ROOT, 'dist', p);

type Rec = { tricks: { cards: string[] }[]; seed: string; match: number; deal: number };
interface Analysis {
  seat: number;
  decision: string;
  solver: { exact: boolean; values: { move: string; value: number }[] };
  bot: { chosen: string; values: { move: string; value: number | null; visits?: number }[] } | null;
}

let server: ReturnType<typeof start>;
let base = '';
const dir = tmpDir();
const recordFiles: string[] = [];
const dbFile = join(dir, 'run.duckdb');
const dbRecords = join(dir, 'run.jsonl');

beforeAll(async () => {
  for (const game of GAMES) {
    const file = join(dir, `${game}.jsonl`);
    const r = tafel(['run', '--game', game, '--bots', 'heuristic,random', '--deals', '2', '--records', file], dir);
    expect(r.status, r.stderr).toBe(0);
    recordFiles.push(file);
  }
  // The same run twice: its database alone (deals played again to replay them), and its records.
  const run = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '3', '--seed', '5'];
  for (const out of [
    ['--db', dbFile],
    ['--records', dbRecords],
  ]) {
    const r = tafel([...run, ...out], dir);
    expect(r.status, r.stderr).toBe(0);
  }
  ({ server, base } = await serve(['--port', '0', '--records', ...recordFiles, '--db', dbFile]));
});

afterAll(async () => {
  server.child.kill('SIGINT');
  const r = await server.done;
  expect(r.status, r.stderr).toBe(0);
});

async function get<T>(path: string): Promise<T> {
  const res = await fetch(base + path);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as T;
}

/** The first record of `file` with at least four tricks, and its line. */
function longDeal(file: string): { rec: Record<string, unknown>; line: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.trim() !== '' && (JSON.parse(l) as Rec).tricks.length >= 4);
  return { rec: JSON.parse(lines[line]) as Record<string, unknown>, line: line + 1 };
}

describe('Analysis: the solver values equal the solver asked directly', () => {
  it.each(GAMES.map((g, i) => [g, i] as const))('%s', async (game, index) => {
    const { rebuildDeal, stateAt } = (await import(
      dist('src/serve/rebuild.js')
    )) as typeof import('../src/serve/rebuild.js');
    const { Solver } = (await import(dist('bots/solver/solver.js'))) as typeof import('../bots/solver/solver.js');
    const { Rng, seedKey } = (await import(dist('src/core/rng.js'))) as typeof import('../src/core/rng.js');
    const { newSets } = (await import(dist('src/core/cardset.js'))) as typeof import('../src/core/cardset.js');
    const { resolveEntrant } = (await import(
      dist('src/harness/table/lineup.js')
    )) as typeof import('../src/harness/table/lineup.js');
    const { rec, line } = longDeal(recordFiles[index]);
    const deal = rebuildDeal(rec);
    // A card decision with more than one legal card, three tricks from the end: exact in every game.
    const last = deal.plies[deal.plies.length - 1].trick;
    let ply = -1;
    for (let p = 0; p < deal.plies.length && ply < 0; p++) {
      const d = deal.plies[p];
      if (d.decision !== 'card' || d.trick < last - 3) continue;
      const s = stateAt(deal, p);
      if (s.legal(newSets(1), 0) > 1) ply = p;
    }
    expect(ply).toBeGreaterThanOrEqual(0);
    const s = stateAt(deal, ply);
    const solver = new Solver(deal.game, deal.table);
    const out = new Float64Array(128);
    solver.moveValues(s, s.toMove, out);
    for (const bot of ['pimc:worlds=6', 'ismcts:iterations=300']) {
      const a = await get<Analysis>(`api/analysis?file=${index}&line=${line}&ply=${ply}&bot=${bot}`);
      expect(a.seat).toBe(s.toMove);
      expect(a.solver.exact).toBe(true);
      const want = a.solver.values.map((v) => out[deal.game.cardNames.code(v.move, trumpOf(rec))]);
      expect(a.solver.values.map((v) => v.value)).toEqual(want);
      // The bot's values: one per legal card, and its best is what act plays from the same stream.
      const legal = newSets(1);
      const count = s.legal(legal, 0);
      expect(a.bot!.values).toHaveLength(count);
      const entrant = await resolveEntrant(bot, deal.game);
      const rng = new Rng(seedKey(String(rec.seed)), ply, 1, s.toMove);
      const player = entrant.spec.create({
        game: deal.game,
        table: deal.table,
        seat: s.toMove,
        rng,
        params: entrant.params,
      });
      const acted = s.moveName(player.act(s.observe(s.toMove), legal, count));
      expect(a.bot!.chosen).toBe(acted);
      const key = (v: { value: number | null; visits?: number }) => (bot.startsWith('ismcts') ? v.visits! : v.value!);
      const best = a.bot!.values.reduce((x, y) => (key(y) > key(x) ? y : x));
      expect(key(best)).toBe(key(a.bot!.values.find((v) => v.move === acted)!));
    }
  });
});

/** The trump suit's index (C S H D) of a French-pack record; 0 otherwise. */
function trumpOf(rec: Record<string, unknown>): number {
  return typeof rec.trump === 'string' ? Math.max(0, 'CSHD'.indexOf(rec.trump)) : 0;
}

describe('bad analysis and database requests: a status and one line', () => {
  const cases: [string, RequestInit, number, RegExp][] = [
    ['api/analysis?file=0&line=1&ply=9999', {}, 400, /^ply 9999: the deal has decisions 0 to \d+$/],
    ['api/analysis?file=0&line=1', {}, 400, /^ply: missing$/],
    ['api/analysis?file=0&line=1&ply=0&bot=./evil.js', {}, 400, /not a built-in bot/],
    ['api/analysis?file=0&line=1&ply=0&budget=5', {}, 400, /^budget=5: 1000 to/],
    ['api/replay/db-record?db=0&run=1&grp=0&rotation=0&deal=0', {}, 400, /^no deal 0 of group 0, rotation 0 of run 1/],
    ['api/replay/db-deals?db=3', {}, 400, /^no database 3 \(there are 1\)$/],
    ['api/replay/db-query', { method: 'POST', body: '{"db":0,"sql":"DROP TABLE runs"}' }, 400, /./],
    [
      'api/replay/db-query',
      { method: 'POST', body: '{"db":0,"sql":"SELECT 1 AS x; SELECT 2"}' },
      400,
      /^2 statements given: one SELECT is asked$/,
    ],
    [
      'api/replay/db-query',
      { method: 'POST', body: '{"db":0,"sql":"SELECT seat FROM seats"}' },
      400,
      /^the result's columns must name a deal: grp, rotation and deal$/,
    ],
    [
      'api/replay/db-query',
      {
        method: 'POST',
        body: JSON.stringify({ db: 0, sql: "SELECT grp, rotation, deal FROM read_csv('/etc/passwd')" }),
      },
      400,
      /Permission Error/,
    ],
  ];
  it.each(cases)('%s %s', async (path, init, status, line) => {
    const res = await fetch(base + path, init);
    const text = await res.text();
    expect(res.status).toBe(status);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text.trim()).toMatch(line);
  });
});

describe('analyses are guarded', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const long = 'api/analysis?file=0&line=1&ply=0&budget=50000000&bot=pimc:worlds=2000';

  it('one at a time, and a client that goes away stops its own', async () => {
    const ac = new AbortController();
    const first = fetch(base + long, { signal: ac.signal }).catch(() => null);
    await sleep(500);
    const busy = await fetch(base + 'api/analysis?file=0&line=1&ply=0&budget=1000');
    expect(busy.status).toBe(503);
    expect((await busy.text()).trim()).toMatch(/^another analysis is running: one at a time/);
    ac.abort();
    expect(await first).toBeNull();
    await sleep(300);
    const after = await fetch(base + 'api/analysis?file=0&line=1&ply=0&budget=1000');
    expect(after.status).toBe(200);
  });

  it('an analysis past --analysis-limit is stopped and answered 503', async () => {
    const other = start(['serve', '--port', '0', '--records', recordFiles[0], '--analysis-limit', '1']);
    const url = await new Promise<string>((resolve) => {
      let out = '';
      other.child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
    });
    const t0 = Date.now();
    const res = await fetch(url + long);
    expect(res.status).toBe(503);
    expect((await res.text()).trim()).toBe('stopped after 1 s: ask a smaller budget');
    expect(Date.now() - t0).toBeLessThan(5000);
    other.child.kill('SIGINT');
    expect((await other.done).status).toBe(0);
  });
});

describe.skipIf(!hasChromium)('Analysis and database replay in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the analysis panel shows the values the server computed', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base + '#replay');
    await page.selectOption('select[name=file]', '0');
    await page.click('[data-line] >> nth=0');
    await page.click('[data-step=next]');
    await page.click('[data-ply] >> nth=1');
    await page.waitForSelector('[data-analysis]');
    const ply = Number(await page.getAttribute('[data-analysis]', 'data-ply'));
    const line = Number(
      readFileSync(recordFiles[0], 'utf8')
        .split('\n')
        .findIndex((l) => l.trim() !== '') + 1,
    );
    const a = await get<Analysis>(`api/analysis?file=0&line=${line}&ply=${ply}&bot=pimc`);
    const shown = await page.evaluate<[string, string][]>(
      `[...document.querySelectorAll('[data-analysis-card]')].map((e) => [e.getAttribute('data-analysis-card'), e.getAttribute('data-value')])`,
    );
    expect(shown).toEqual(a.solver.values.map((v) => [v.move, String(v.value)]));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a deal of a run database, picked by seed and group and by a query, has the tricks of its record', async () => {
    const records = readFileSync(dbRecords, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec & { rotation: number });
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const stepThrough = async (): Promise<string[]> => {
      await page.waitForSelector('[data-step=next]');
      const seen: string[] = [];
      while (!(await page.isDisabled('[data-step=next]'))) {
        await page.click('[data-step=next]');
        seen.push((await page.getAttribute('[data-trick]', 'data-trick'))!);
      }
      return seen;
    };
    const tricksOf = (group: number, rotation: number) =>
      records.find((r) => r.match === group * 2 + rotation)!.tricks.map((t) => t.cards.join(' '));
    await page.goto(base + '#replay');
    await page.selectOption('select[name=file]', 'db0');
    await page.fill('input[name=seed]', '5');
    await page.fill('input[name=match]', '2');
    await page.click('form button[type=submit]');
    await page.waitForSelector('.note:has-text("2 deals")');
    await page.click('[data-deal] >> nth=1');
    expect(await stepThrough()).toEqual(tricksOf(2, 1));
    await page.click('text=other deals');
    await page.selectOption('select[name=file]', 'db0');
    await page.fill(
      'textarea[name=sql]',
      'SELECT grp, rotation, deal, trump FROM deals WHERE grp = 1 AND rotation = 0',
    );
    await page.click('button[data-query]');
    await page.waitForSelector('table.result [data-deal]');
    await page.click('table.result [data-deal]');
    expect(await stepThrough()).toEqual(tricksOf(1, 0));
    expect(errors).toEqual([]);
    await page.close();
  });
});
