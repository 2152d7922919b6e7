/**
 * `tafel play` to its first prompt, against `node -e 0` (Node's own start) and baseline
 * builds, in turn, round after round (bench/README.md, "Start-up"). A play is spawned
 * with piped input; its clock stops when its output ends with the prompt `> `, then it
 * is answered `q`. `node -e 0` is timed to its exit. Prints each one's median and the
 * median of its per-round ratios to `node -e 0` (the figure to quote). hyperfine times
 * the commands that print and exit (`--version`, `games`) the same way.
 *
 *   npm run build
 *   taskset -c 1 node dist/bench/startup.js [--baseline DIR]... [--game NAME] [--rounds 20]
 *
 * The game is the first of `tafel games` (Viersche) unless --game names another.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GAME_LISTINGS } from '../src/games/listings.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string', multiple: true, default: [] },
    game: { type: 'string', default: GAME_LISTINGS[0].name },
    rounds: { type: 'string', default: '20' },
  },
  strict: true,
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('startup: --rounds must be a whole number from 1');
  process.exit(2);
}
const ROOT = join(import.meta.dirname, '..', '..');
const builds = [ROOT, ...values.baseline].map((dir) => join(dir, 'dist', 'src', 'cli', 'main.js'));
for (const main of builds) {
  if (!existsSync(main)) {
    console.error(`startup: no ${main} (npm run build there)`);
    process.exit(2);
  }
}

/** Milliseconds from the spawn of `args` to its prompt (`prompt`) or, without one, to its exit. */
function timed(args: readonly string[], prompt: boolean): Promise<number> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    let at = -1;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      if (prompt && at < 0 && out.endsWith('> ')) {
        at = performance.now() - start;
        child.stdin.end('q\n');
      }
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (!prompt) return done(performance.now() - start);
      if (at < 0) return fail(new Error(`${args.join(' ')} ended (status ${code}) without a prompt`));
      done(at);
    });
    if (!prompt) child.stdin.end();
  });
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const names = ['node -e 0', ...builds.map((main) => `${main} play --game ${values.game}`)];
const times: number[][] = names.map(() => []);
for (let r = 0; r < rounds + 1; r++) {
  const round = [await timed(['-e', '0'], false)];
  for (const main of builds) round.push(await timed([main, 'play', '--game', values.game], true));
  if (r === 0) continue; // the first round warms the file cache
  round.forEach((ms, i) => times[i].push(ms));
}
console.log(
  `startup: ${rounds} rounds, each command once a round in turn; median ms, and the median of per-round ratios to node -e 0`,
);
names.forEach((name, i) => {
  const ratio = median(times[i].map((ms, r) => ms / times[0][r]));
  console.log(`${median(times[i]).toFixed(1).padStart(8)} ms  ${ratio.toFixed(2)}x  ${name}`);
});
