/**
 * A bot's failure during play: what went wrong, by kind, so that tables can count
 * faults per bot and kind. Module bots fail by throwing, playing an illegal move or
 * taking too long; bot programs also by crashing, writing what is not a message, or
 * breaking the protocol (PROTOCOL.md "Errors"). The message says what happened, not
 * where: the caller adds the bot, seat, seed and deal.
 */
import { TafelError } from '../../core/errors.js';

export type FaultKind = 'time' | 'crash' | 'malformed' | 'illegal' | 'protocol' | 'threw';

/** Every kind, in the order tables show them. */
export const FAULT_KINDS: readonly FaultKind[] = ['time', 'crash', 'malformed', 'illegal', 'protocol', 'threw'];

export class BotFault extends TafelError {
  constructor(
    readonly fault: FaultKind,
    message: string,
  ) {
    super('bot-failed', message);
    this.name = 'BotFault';
  }
}

/** Text a bot wrote, quoted for a one-line message: cut to about `max` characters. */
export function quote(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, ' ');
  return `'${flat.length > max ? flat.slice(0, max - 1) + '…' : flat}'`;
}
