/**
 * `tafel serve` in a real browser (the distribution's Chromium through playwright-core,
 * as test/report-browser.test.ts): a whole deal of each game played by clicks to its
 * `data-result`, which must be the `result:` lines that `tafel play` prints for the same
 * seed and answers; a click on a card held but not legal refused with the game's reason;
 * the records the page hands back are RECORD.md lines. And the server's answers to bad
 * requests: a status and one line.
 *
 * Without Chromium the browser part is skipped, and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../bench/chromium.js';
import { readFileSync } from 'node:fs';
import { ROOT, expectUserError, serve, start, tafel, tmpDir } from './cli-helpers.js';

const GAMES = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'] as const;

if (!hasChromium) {
  console.log(`serve-browser: skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set TAFEL_CHROMIUM)`);
}

const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

let server: ReturnType<typeof start>;
let base = '';
const dir = tmpDir();
/** A records file per game, for Replay. */
const recordFiles: string[] = [];

beforeAll(async () => {
  for (const game of GAMES) {
    const file = join(dir, `${game}.jsonl`);
    const r = tafel(['run', '--game', game, '--bots', 'heuristic,random', '--deals', '4', '--records', file], dir);
    expect(r.status, r.stderr).toBe(0);
    recordFiles.push(file);
  }
  ({ server, base } = await serve(['--port', '0', '--records', ...recordFiles]));
});

afterAll(async () => {
  server.child.kill('SIGINT');
  const r = await server.done;
  expect(r.status, r.stderr).toBe(0);
});

/** `tafel play` with these answers piped in: its `result:` lines. */
function playResult(args: readonly string[], answers: readonly string[]): string[] {
  const r = spawnSync(process.execPath, [CLI, 'play', ...args], {
    input: answers.map((l) => l + '\n').join(''),
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l.startsWith('result:'));
}

describe('tafel serve refuses bad flags in one line', () => {
  it.each([
    [['--records', 'no-such.jsonl'], /^tafel: --records no-such\.jsonl: no such file$/],
    [['--port', '70000'], /^tafel: --port 70000: a port is 0 to 65535$/],
  ])('%s', (args, line) => expectUserError(tafel(['serve', ...args]), line));
});

describe('the server answers bad requests with a status and one line', () => {
  const cases: [string, RequestInit, number, RegExp][] = [
    ['/api/nothing', {}, 404, /^no API at GET \/api\/nothing$/],
    ['/../../etc/passwd', {}, 404, /^no page at \/etc\/passwd$/],
    ['/api/play', { method: 'POST', body: '{' }, 400, /^the request body is not JSON$/],
    ['/api/play', { method: 'POST', body: '{"game":"skat"}' }, 400, /^unknown game 'skat'/],
    ['/api/play', { method: 'POST', body: '{"game":"viersche","bots":"../x.js"}' }, 400, /not a built-in bot/],
    [
      '/api/play',
      { method: 'POST', body: '{"game":"viersche","seat":9}' },
      400,
      /^seat must be a whole number from 0 to 3/,
    ],
    ['/api/replay/deals?file=9', {}, 400, /^no records file 9 \(there are 4\)$/],
    ['/api/replay/record?file=0&line=x', {}, 400, /^line=x: a whole number from 0$/],
    ['/api/replay/record?file=0&line=999', {}, 400, /has no record on line 999$/],
    ['/api/play/999/answer', { method: 'POST', body: '{"line":"y"}' }, 400, /^no play session 999/],
    ['/api/play', { method: 'POST', body: 'x'.repeat(70_000) }, 413, /^request body over/],
  ];
  it.each(cases)('%s', async (path, init, status, line) => {
    const res = await fetch(base + path.replace(/^\//, ''), init).catch(() => null);
    // fetch normalises `..` away; ask for the raw path with node:http where it matters.
    expect(res).not.toBeNull();
    const text = await res!.text();
    expect(res!.status).toBe(status);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text.trim()).toMatch(line);
  });

  it('survives a client that goes away mid-deal', async () => {
    const ac = new AbortController();
    const open = await fetch(base + 'api/play', { method: 'POST', body: '{"game":"viersche","deals":1}' });
    const { id, turn } = (await open.json()) as { id: string; turn: { legal: string[] } };
    // The answer's request dropped as it is sent: the session goes on, and answers the next.
    const p = fetch(`${base}api/play/${id}/answer`, {
      method: 'POST',
      body: JSON.stringify({ line: turn.legal[0] }),
      signal: ac.signal,
    }).catch(() => null);
    ac.abort();
    await p;
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${base}api/play/${id}`);
    expect(res.status).toBe(200);
    const view = (await res.json()) as { turn: unknown; end: unknown };
    expect(view.turn !== null || view.end !== null).toBe(true);
  });
});

/** The names of the cards matching `selector`, read in the page (the tests have no DOM types). */
function cards(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `[...document.querySelectorAll('${selector}')].map((c) => c.getAttribute('data-card'))`,
  );
}

describe.skipIf(!hasChromium)('Play in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function startDeal(page: Page, game: string, seed: string): Promise<void> {
    await page.goto(base, { waitUntil: 'load' });
    await page.selectOption('select[name=game]', game);
    await page.fill('input[name=seed]', seed);
    await page.fill('input[name=bots]', 'heuristic');
    await page.click('button[data-action=start]');
    await page.waitForSelector('[data-card], [data-answer], [data-result]');
  }

  it.each(GAMES)('%s: a whole deal played by clicks ends in the result tafel play prints', async (game) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => requests.push(r.url()));
    const seed = '7';
    await startDeal(page, game, seed);
    const answers: string[] = [];
    let refused = false;
    for (let step = 0; step < 400; step++) {
      if ((await page.$('[data-result]')) !== null) break;
      const question = await page.$('button[data-answer]');
      if (question) {
        // Alternate yes and no, so both are exercised over the games.
        const answer = answers.length % 2 === 0 ? 'no' : 'yes';
        answers.push(answer === 'yes' ? 'y' : 'n');
        await page.click(`button[data-answer=${answer}]`);
      } else {
        const illegal = await page.$('[data-card]:not([data-legal])');
        if (illegal && !refused) {
          // A card held but not legal: refused, with the game's reason, and nothing played.
          const hand = await cards(page, '[data-card]');
          const name = (await illegal.getAttribute('data-card'))!;
          await illegal.click();
          await page.waitForSelector('.message');
          expect(await page.textContent('.message')).toContain(`${name} is not legal here`);
          expect(await cards(page, '[data-card]')).toEqual(hand);
          refused = true;
          continue;
        }
        const legal = await cards(page, '[data-card][data-legal]');
        expect(legal.length).toBeGreaterThan(0);
        const name = legal[legal.length - 1];
        answers.push(name);
        await page.click(`[data-card="${name}"]`);
      }
      await page.waitForFunction('!document.body.dataset.busy');
    }
    const shown = (await page.textContent('[data-result]'))!.trim().split('\n');
    const count = Number(await page.getAttribute('[data-records]', 'data-records'));
    const records = await page.evaluate<string, string>(
      async (href) => (await fetch(href)).text(),
      (await page.getAttribute('[data-records]', 'href'))!,
    );
    await context.close();

    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith(base))).toBe(true);
    expect(shown).toEqual(playResult(['--game', game, '--seed', seed, '--bots', 'heuristic', '--deals', '1'], answers));
    expect(count).toBe(1);
    const lines = records.trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]) as { game: string; seed: string; bots: string[] };
    expect(record.game).toBe(game);
    expect(record.seed).toBe(seed);
    expect(record.bots).toContain('human');
  });

  it.each(GAMES.map((g, i) => [g, i] as const))(
    "%s: a replay stepped to the end shows the record's tricks, and back",
    async (game, index) => {
      const record = JSON.parse(readFileSync(recordFiles[index], 'utf8').trim().split('\n')[2]) as {
        seed: string;
        match: number;
        deal: number;
        tricks: { cards: string[] }[];
        hands: string[][];
      };
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(base + '#replay', { waitUntil: 'load' });
      await page.selectOption('select[name=file]', String(index));
      await page.fill('input[name=match]', String(record.match));
      await page.fill('input[name=deal]', String(record.deal));
      await page.click('form button[type=submit]');
      await page.waitForSelector('.note:has-text("1 deal")');
      await page.click('[data-line]');
      await page.waitForSelector('[data-step=next]');
      const seen: string[] = [];
      while (!(await page.isDisabled('[data-step=next]'))) {
        await page.click('[data-step=next]');
        seen.push((await page.getAttribute('[data-trick]', 'data-trick'))!);
      }
      expect(seen).toEqual(record.tricks.map((t) => t.cards.join(' ')));
      // At the end every hand of a seat taking part is empty, and the score after is shown.
      expect(await page.$$('[data-seat]:not([data-out]) .card')).toHaveLength(0);
      expect(await page.$('[data-end]')).not.toBeNull();
      // One seat's view: its own cards, the others' backs.
      for (let k = 0; k < record.tricks.length; k++) await page.click('[data-step=prev]');
      await page.selectOption('select[name=view]', '1');
      const open = await page.evaluate<string[]>(
        `[...document.querySelectorAll('[data-seat] .card')].map((c) => c.title).filter((t) => t !== '??')`,
      );
      expect(open.sort()).toEqual([...record.hands[1]].sort());
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
