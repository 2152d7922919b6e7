/**
 * The error a user can cause: a bad flag, an unknown bot, an unwritable path. It
 * carries a stable code and a one-line message that says what and where; the CLI
 * prints that line and exits non-zero without a stack trace. Anything else that is
 * thrown is a bug and keeps its stack.
 */
export type ErrorCode =
  // what the user asked for
  | 'bad-option' // a flag's value: a number, an index, a seat, a choice
  | 'missing-option' // a flag that this use needs
  | 'bad-seed'
  | 'unknown-game'
  | 'bad-table' // players, variants or rules of play a game does not allow
  | 'unknown-bot'
  | 'bad-bot' // a bot list, or a bot for another game, or a bot's load
  | 'unknown-param'
  | 'bad-param' // a bot parameter's value
  | 'bad-spec' // a run spec (or a part of one) that does not hold together
  | 'bad-sprt'
  | 'bad-shard'
  | 'bad-tune'
  | 'too-many-programs'
  // files
  | 'missing-input'
  | 'unreadable'
  | 'unwritable'
  | 'bad-output' // an output that exists or cannot be made
  | 'bad-input' // a file that is not what it should be
  | 'bad-board'
  | 'bad-record'
  | 'no-deal'
  | 'bad-journal'
  | 'bad-resume'
  | 'bad-merge'
  | 'bad-db'
  | 'bad-sql'
  | 'bad-yardstick'
  // play
  | 'protocol' // a message of the bot protocol that breaks it
  | 'bot-failed' // a bot threw, timed out or broke the rules (exit 3)
  | 'bot-withdrawn'; // a bot withdrawn for its faults (exit 3)

export class TafelError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TafelError';
  }
}

export function isTafelError(e: unknown): e is TafelError {
  return e instanceof TafelError;
}
