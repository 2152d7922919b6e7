#!/usr/bin/env node
// Screenshots of `tafel serve` in results/ (serve-<game>-play.png, -result.png,
// -replay.png at 1280x720, and serve-<game>-phone.png at a phone's width): each game
// played by clicks from seed 7 against heuristic bots (Vier-Anderle at its first question), and a deal of a seeded run
// replayed half way; -analysis.png, a decision of that deal analysed (the solver's values
// and pimc's). Seeded, so they change only with tafel and the page (the times shown aside).
//
//   npm run build && node scripts/serve-screenshots.mjs
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../dist/bench/chromium.js';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist/src/cli/main.js');
const tmp = join(root, 'tmp/serve-screenshots');
const games = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'];
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const records = games.map((g) => {
  const file = join(tmp, `${g}.jsonl`);
  execFileSync(process.execPath, [cli, 'run', '--game', g, '--bots', 'heuristic', '--deals', '12', '--records', file], {
    cwd: tmp,
    stdio: 'ignore',
  });
  return file;
});

const server = spawn(process.execPath, [cli, 'serve', '--port', '0', '--records', ...records]);
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += String(d);
    const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) resolve(m[1]);
  });
  server.on('exit', () => reject(new Error('tafel serve ended')));
});

const browser = await launchChromium();
const shot = (page, name) => page.screenshot({ path: join(root, 'results', `serve-${name}.png`) });

/** Click the last legal card, or answer (yes in Vier-Anderle: play the deal); false once the result is shown. */
async function move(page, game) {
  if (await page.$('[data-result]')) return false;
  const answer = await page.$(`button[data-answer=${game === 'vier-anderle' ? 'yes' : 'no'}]`);
  if (answer) await answer.click();
  else await page.click('[data-card][data-legal] >> nth=-1');
  await page.waitForFunction('!document.body.dataset.busy');
  return true;
}

try {
  for (const [i, game] of games.entries()) {
    for (const [view, size] of [
      ['', { width: 1280, height: 720 }],
      ['phone', { width: 390, height: 844 }],
    ]) {
      const page = await browser.newPage({ viewport: size });
      await page.goto(base);
      await page.selectOption('select[name=game]', game);
      await page.fill('input[name=seed]', '7');
      await page.click('button[data-action=start]');
      await page.waitForSelector('[data-card], [data-answer], [data-result]');
      // A few moves in, so the table has tricks behind it and one under way.
      for (let k = 0; k < (game === 'vier-anderle' ? 0 : 3); k++) await move(page, game);
      await shot(page, view ? `${game}-${view}` : `${game}-play`);
      if (!view) {
        while (await move(page, game));
        await shot(page, `${game}-result`);
        await page.goto('about:blank');
        await page.goto(base + '#replay');
        await page.selectOption('select[name=file]', String(i));
        // The first deal with two tricks or more (a Vier-Anderle solo has none).
        for (let line = 0; ; line++) {
          await page.click(`[data-line] >> nth=${line}`);
          await page.waitForSelector('[data-step=next]');
          if (Number((await page.textContent('[data-position]')).split(' of ')[1]) >= 2) break;
          await page.click('text=other deals');
          await page.waitForSelector('[data-line]');
        }
        for (let k = 0; k < 2; k++)
          if (!(await page.isDisabled('[data-step=next]'))) await page.click('[data-step=next]');
        await shot(page, `${game}-replay`);
        // Analysis, one trick back: the second trick's second card (the solver's values and
        // pimc's); in Vier-Anderle the first declaration, a yes/no question.
        const anderle = game === 'vier-anderle';
        for (let k = 0; k < (anderle ? 2 : 1); k++) await page.click('[data-step=prev]');
        await page.click(`[data-ply] >> nth=${anderle ? 0 : 1}`);
        await page.waitForSelector('[data-analysis]', { timeout: 120_000 });
        await page.locator('.analysis').scrollIntoViewIfNeeded();
        await shot(page, `${game}-analysis`);
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.kill('SIGINT');
}
