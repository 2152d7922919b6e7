/**
 * `tafel play` as a person meets it: scripted games through piped stdin in every game
 * (a yes/no decision answered y, wrong and refused inputs explained and asked again),
 * the records that `tafel replay` shows, the exit statuses, one line for every bad
 * flag, and a real terminal under tmux.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectUserError, read, tafel, tmpDir, ROOT } from './cli-helpers.js';
import { play as playHere, type Game } from './play-helpers.js';
import { GAMES as ENGINES } from '../src/games/index.js';
import { resolveEntrant } from '../src/harness/table/lineup.js';
import { DEFAULT_HINT } from '../src/cli/play.js';

const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

/** `tafel play ...args` with `lines` on stdin, one answer a line. */
function playCli(args: readonly string[], lines: readonly string[]) {
  const r = spawnSync(process.execPath, [CLI, 'play', ...args], {
    input: lines.map((l) => l + '\n').join(''),
    encoding: 'utf8',
    cwd: ROOT,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What was on screen at each answer of a transcript: the text before each `> ` line, and the answer. */
function turns(transcript: string): { screen: string; answer: string }[] {
  const out: { screen: string; answer: string }[] = [];
  let screen = '';
  for (const line of transcript.split('\n')) {
    if (line.startsWith('> ')) {
      out.push({ screen, answer: line.slice(2) });
      screen = '';
    } else screen += line + '\n';
  }
  return out;
}

function labelledLine(screen: string, label: string): string[] {
  const line = screen.split('\n').findLast((l) => l.startsWith(label)) ?? '';
  return line.slice(label.length).trim().split(/\s+/).filter(Boolean);
}

/** The flags of a session. */
function argsOf(g: Game): string[] {
  return [
    ...['--game', g.game, '--seat', String(g.seat), '--bots', g.bots, '--seed', g.seed ?? '1'],
    ...[g.unit === 'match' ? '--matches' : '--deals', String(g.count ?? 1)],
    ...(g.rules ? ['--rules', g.rules] : []),
    ...(g.players ? ['--players', String(g.players)] : []),
  ];
}

/**
 * A script for a session: played once in this process answering 1 to everything (the
 * same transcript as through a pipe), to learn where the first question and the first
 * card held but not legal come; then `zz` and `99` at the first turn, `y` to the first
 * question, that card once, and 1 otherwise.
 */
async function script(g: Game): Promise<{ lines: string[]; refused: string; question: boolean }> {
  const trial = await playHere(g, () => '1');
  expect(trial.result.end).toBe('finished');
  const seen = turns(trial.text);
  const lines = seen.map(() => '1');
  const asked = seen.findIndex((t) => t.screen.includes('\nquestion  '));
  if (asked >= 0) lines[asked] = 'y';
  const at = seen.findIndex((t) => {
    if (!t.screen.includes('\nyour card ')) return false;
    const legal = labelledLine(t.screen, 'your card ').filter((_, i) => i % 2 === 1);
    return labelledLine(t.screen, 'hand      ').some((c) => c !== '|' && !legal.includes(c));
  });
  expect(at, 'a turn with a card held but not legal').toBeGreaterThanOrEqual(0);
  const legal = labelledLine(seen[at].screen, 'your card ').filter((_, i) => i % 2 === 1);
  const refused = labelledLine(seen[at].screen, 'hand      ').find((c) => c !== '|' && !legal.includes(c))!;
  lines.splice(at, 0, refused.toLowerCase());
  return { lines: ['zz', '99', ...lines], refused, question: asked >= 0 };
}

const GAMES: (Game & { rule: RegExp })[] = [
  { game: 'viersche', seat: 0, bots: 'random,heuristic', unit: 'match', seed: 'cli-1', rule: /V-[45]/ },
  { game: 'hindersche', seat: 2, bots: 'heuristic,random', count: 2, rules: 'schleipfen=true', rule: /H-1, V-5/ },
  { game: 'hindersi-jass', seat: 0, bots: 'random', count: 2, players: 3, rule: /J-4/ },
  { game: 'vier-anderle', seat: 4, bots: 'heuristic', unit: 'match', players: 5, rule: /A-3/ },
];

describe('tafel play through piped stdin', () => {
  it.each(GAMES)('$game: a scripted game to the end, records that replay shows', async (g) => {
    const { game, rule, seat } = g;
    const records = join(tmpDir(), 'deals.jsonl');
    const { lines, refused, question } = await script(g);
    const r = playCli([...argsOf(g), '--records', records], lines);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /\n> zz\n'zz' is neither a card nor a command: type a card such as \S+, or its number 1-\d+/,
    );
    expect(r.stdout).toMatch(/\n> 99\n99: there are \d+ legal cards; type/);
    expect(r.stdout).toMatch(
      new RegExp(`\\n> ${refused.toLowerCase()}\\n${refused} is not legal here: .*\\(${rule.source}`),
    );
    if (game !== 'hindersi-jass') {
      expect(question, 'a yes/no question').toBe(true);
      expect(r.stdout).toMatch(/\nquestion {2}.*\n.*\n> y\n {2}you: /);
    }
    // Plain text: no colour codes through a pipe.
    expect(r.stdout).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    const tail = r.stdout.trimEnd().split('\n');
    expect(tail.at(-1)).toMatch(/^result: your mean per (deal|match)/);
    expect(r.stdout).toMatch(/\nresult: .* finished/);

    const recs = read(records)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { bots: string[]; match: number; deal: number; seed: string });
    expect(recs.length).toBeGreaterThan(0);
    for (const rec of recs) expect(rec.bots[seat]).toBe('human');
    const last = recs.at(-1)!;
    const shown = tafel(['replay', '--records', records, '--match', String(last.match), '--deal', String(last.deal)]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`seat ${seat} (human`);
    expect(shown.stdout).toMatch(/\ntricks\n/);
  });

  it('q stops with status 0 and the finished deals kept; input that ends early is status 2, one line', async () => {
    const dir = tmpDir();
    const records = join(dir, 'deals.jsonl');
    const g: Game = { game: 'viersche', seat: 0, bots: 'random', count: 3, seed: 'stop' };
    const args = [...argsOf(g), '--records', records];
    // Stop at the first turn of the second deal.
    const trial = await playHere(g, () => '1');
    const first = turns(trial.text).findIndex((t) => t.screen.includes('deal 2 of 3'));
    const quit = playCli(args, [...Array<string>(first).fill('1'), 'q']);
    expect(quit.status, quit.stderr).toBe(0);
    expect(quit.stdout).toMatch(/\nresult: you quit before the end; the deal under way is not counted\n/);
    expect(quit.stdout).toMatch(/\nresult: viersche, seed stop, you at seat 0, bots random: 1 deal finished\n/);
    expect(read(records).trim().split('\n')).toHaveLength(1);

    const ended = playCli([...args, '--force'], ['zz']);
    expect(ended.status).toBe(2);
    expect(ended.stderr).toBe('tafel: the input ended before the session did (0 deals finished)\n');
    expect(ended.stdout).toMatch(/\nresult: the input ended before the end/);
    expect(read(records)).toBe('');
  });

  it('a bot that fails stops the session with status 3 and one line; a hint bot that fails says so', () => {
    const fixture = (name: string) => join(ROOT, 'test', 'fixtures', name);
    const ones = Array<string>(50).fill('1');
    const thrown = playCli(['--game', 'viersche', '--bots', fixture('throwing-bot.js'), '--deals', '1'], ones);
    expect(thrown.status).toBe(3);
    expect(thrown.stderr).toMatch(/^tafel: bot \S+throwing-bot\.js at seat \d threw .* \(seed 1, deal 0\)\n$/);
    const unbuilt = playCli(['--game', 'viersche', '--bots', fixture('unbuildable-bot.js'), '--deals', '1'], ones);
    expect(unbuilt.status).toBe(3);
    expect(unbuilt.stderr).toMatch(/^tafel: bot \S+unbuildable-bot\.js at seat 1 could not be built: no bot today\n$/);
    const hinted = playCli(['--game', 'viersche', '--deals', '1'], [`h ${fixture('unbuildable-bot.js')}`, 'q']);
    expect(hinted.status).toBe(0);
    expect(hinted.stdout).toMatch(/\nno hint: \S+unbuildable-bot\.js could not be built: no bot today\n/);
  });

  it('asks the default hint bot, loaded only when h asks, which plays every game and sees only its seat', async () => {
    // play-command.ts skips the check of --hint for the default bot: these are what it would check.
    for (const game of ENGINES) expect((await resolveEntrant(DEFAULT_HINT, game)).spec.cheats, game.name).toBeFalsy();
    const hinted = playCli(['--game', 'viersche', '--deals', '1'], ['h', 'q']);
    expect(hinted.status).toBe(0);
    expect(hinted.stdout).toMatch(new RegExp(`\\nhint from ${DEFAULT_HINT}: \\S+ \\(\\d+\\) · \\d+ ms\\n`));
  });

  it('says what is wrong with its flags in one line, status 2', () => {
    const dir = tmpDir();
    const taken = join(dir, 'taken.jsonl');
    writeFileSync(taken, 'keep me\n');
    const cases: [string[], RegExp][] = [
      [['--game', 'skat'], /unknown game 'skat'/],
      [['--game', 'viersche', '--seat', '4'], /--seat 4: viersche here has seats 0 to 3/],
      [['--game', 'viersche', '--bots', 'a,b,c,d'], /--bots names 4 bots but there are 3 other seats/],
      [['--game', 'viersche', '--bots', 'nobot'], /unknown bot 'nobot'/],
      [['--game', 'viersche', '--hint', 'oracle'], /--hint oracle: it sees every hand/],
      [
        ['--game', 'viersche', '--records', taken],
        /--records \S+taken\.jsonl: the file exists .*; replace it with --force, or choose another name/,
      ],
      [['--game', 'viersche', '--records', join(dir, 'r.csv')], /--records \S+r\.csv: the name must end \.jsonl/],
      [['--game', 'viersche', '--deals', '1', '--matches', '1'], /--deals.*cannot be used with.*--matches/],
      [['--game', 'vier-anderle', '--players', '14'], /vier-anderle is played by 2 to 13 players, not 14/],
    ];
    for (const [args, message] of cases) expectUserError(playCli(args, []), message);
    expect(read(taken)).toBe('keep me\n');
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.log('tafel play: the terminal test is skipped: tmux is not installed (.ci/run installs it)');

describe('tafel play in a terminal', () => {
  it.skipIf(!hasTmux)('shows the hand in colour and takes a legal card typed at the keyboard', async () => {
    const socket = `tafel-test-${process.pid}`;
    const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    const dir = tmpDir();
    const records = join(dir, 'deals.jsonl');
    // The pane stays after tafel ends, to show its last lines and status.
    const command = `${process.execPath} ${CLI} play --game viersche --bots heuristic --deals 1 --seed tmux --records ${records}; echo status $?; sleep 60`;
    const screen = async (until: (text: string) => boolean): Promise<string> => {
      let text = '';
      for (let i = 0; i < 100 && !until(text); i++) {
        await new Promise((r) => setTimeout(r, 100));
        text = tmux('capture-pane', '-p', '-t', 'play').stdout;
      }
      return text;
    };
    try {
      expect(tmux('new-session', '-d', '-s', 'play', '-x', '140', '-y', '45', command).status).toBe(0);
      const first = await screen((t) => /\n> *$/.test(t.trimEnd() + ' '));
      expect(first).toMatch(/\nhand {6}\S+/);
      expect(first).toMatch(/\nyour card 1 \S+/);
      const coloured = tmux('capture-pane', '-p', '-e', '-t', 'play').stdout;
      expect(coloured).toMatch(/\x1b\[3[1-4]m/); // eslint-disable-line no-control-regex
      const card = /\nyour card 1 (\S+)/.exec(first)![1];
      tmux('send-keys', '-t', 'play', '1', 'Enter');
      // The screen is drawn again for the next turn, telling the card played.
      const next = await screen((t) => t.includes(`you play ${card}`) || t.includes(`you lead ${card}`));
      expect(next).toMatch(new RegExp(`you (play|lead) ${card}`));
      expect(next).toMatch(/\nhand {6}\S+/);
      tmux('send-keys', '-t', 'play', 'q', 'Enter');
      const done = await screen((t) => t.includes('status '));
      expect(done).toMatch(/result: you quit/);
      expect(done).toMatch(/\nstatus 0\n/);
      expect(existsSync(records)).toBe(true);
    } finally {
      tmux('kill-server');
    }
  });
});
