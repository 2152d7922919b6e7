/**
 * What a bot did wrong, by kind: a program's faults (PROTOCOL.md "Errors") and a module bot's.
 * Every fault stops the deal; `--on-bot-error` says whether the run stops or drops the group.
 */
import { TafelError } from '../../core/errors.js';

export type FaultKind = 'time' | 'crash' | 'malformed' | 'illegal' | 'protocol' | 'threw';

export const FAULT_KINDS: readonly FaultKind[] = ['time', 'crash', 'malformed', 'illegal', 'protocol', 'threw'];

export class BotFault extends TafelError {
  constructor(
    readonly fault: FaultKind,
    message: string,
  ) {
    super('bot-failed', message);
  }
}
