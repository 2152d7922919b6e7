/**
 * The person's side of `tafel play` on stdin and stdout, through node:readline. On a
 * terminal: line editing, history, tab completion of the answers that make sense now,
 * colours when the terminal has them, Ctrl-C to stop. Otherwise (piped input or
 * output): plain text, the prompt and each answer read written to the transcript, one
 * answer a line; lines that arrive early wait their turn.
 */
import { clearScreenDown, createInterface, cursorTo } from 'node:readline';
import { colours, plain } from './screen.js';
import type { Person } from './session.js';

export interface Terminal extends Person {
  /** Input and output are both a terminal. */
  readonly interactive: boolean;
  /** The person pressed Ctrl-C (the input then reads as ended). */
  readonly interrupted: boolean;
  close(): void;
}

export function openTerminal(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
): Terminal {
  const interactive = input.isTTY === true && output.isTTY === true;
  let completions: readonly string[] = [];
  const rl = createInterface({
    input,
    output: interactive ? output : undefined,
    terminal: interactive,
    completer: (line: string): [string[], string] => {
      const word = line.trim().toLowerCase();
      return [completions.filter((c) => c.toLowerCase().startsWith(word)), line];
    },
  });
  const lines = rl[Symbol.asyncIterator]();
  let interrupted = false;
  let stop: (() => void) | null = null;
  rl.on('SIGINT', () => {
    interrupted = true;
    stop?.();
  });
  return {
    interactive,
    get interrupted() {
      return interrupted;
    },
    paint: output.isTTY === true && output.hasColors() ? colours : plain,
    redraw: interactive,
    clear() {
      cursorTo(output, 0, 0);
      clearScreenDown(output);
    },
    say(text) {
      output.write(text + '\n');
    },
    async ask(prompt, answers) {
      if (interrupted) return null;
      completions = answers;
      if (interactive) {
        rl.setPrompt(prompt);
        rl.prompt();
      } else output.write(prompt);
      const next = await Promise.race([lines.next(), new Promise<null>((resolve) => (stop = () => resolve(null)))]);
      stop = null;
      if (next === null || next.done === true) {
        output.write('\n');
        return null;
      }
      const line = String(next.value);
      if (!interactive) output.write(line + '\n');
      return line;
    },
    close() {
      rl.close();
    },
  };
}
