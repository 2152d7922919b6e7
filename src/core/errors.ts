/**
 * The error a user can cause: a bad flag, an unknown bot, an unwritable path. It
 * carries a stable code and a one-line message that says what and where; the CLI
 * prints that line and exits non-zero without a stack trace. Anything else that is
 * thrown is a bug and keeps its stack.
 */
export class TafelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TafelError';
  }
}

export function isTafelError(e: unknown): e is TafelError {
  return e instanceof TafelError;
}
