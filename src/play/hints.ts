/**
 * Hints (`h`, `h BOT`): what a bot would play at the person's seat. Each bot is built
 * once, for the person's seat, with a random stream of its own, reseeded before every
 * hint from the seed, the deal and the ply: the same position gets the same hint, and
 * the streams of the bots at the table are untouched. It sees the person's observation,
 * as every bot sees its own seat's; a bot that cheats (sees every hand) gives none.
 */
import { Rng, seedKey, type SeedKey } from '../core/rng.js';
import { TafelError } from '../core/errors.js';
import type { Game, Observation, TableConfig } from '../games/game.js';
import type { Bot } from '../games/bot.js';
import type { Entrant } from '../harness/table/lineup.js';
import type { Menu } from './input.js';

export class Hints {
  private readonly bots = new Map<string, Bot>();
  private readonly rng = new Rng();
  private readonly key: SeedKey;

  constructor(
    private readonly game: Game,
    private readonly table: TableConfig,
    private readonly seat: number,
    seed: string,
    /** A bot by its label (`pimc`, `pimc:worlds=80`, `./my-bot.js`). */
    private readonly resolve: (label: string) => Promise<Entrant>,
  ) {
    // A seed has no '/', so no run's seed names this key.
    this.key = seedKey(`${seed}/hint`);
  }

  /** One line: bot `label`'s move among the `menu`'s (from `legal`) in deal `deal` of group `group`, or why there is none. */
  async hint(
    label: string,
    obs: Observation,
    legal: Int32Array,
    menu: Menu,
    group: number,
    deal: number,
  ): Promise<string> {
    let bot = this.bots.get(label);
    if (!bot) {
      let entrant: Entrant;
      try {
        entrant = await this.resolve(label);
      } catch (e) {
        if (e instanceof TafelError) return `no hint: ${e.message}`;
        throw e;
      }
      if (entrant.spec.cheats) return `no hint: ${label} sees every hand, so it cannot advise a seat`;
      try {
        bot = entrant.spec.create({
          game: this.game,
          table: this.table,
          seat: this.seat,
          rng: this.rng,
          params: entrant.params,
        });
      } catch (e) {
        return `no hint: ${label} could not be built: ${firstLine(e)}`;
      }
      this.bots.set(label, bot);
    }
    this.rng.reseed(this.key, group, deal, obs.plies);
    const started = performance.now();
    let move: number;
    try {
      move = bot.act(obs, legal, menu.legal.length);
    } catch (e) {
      return `no hint: ${label} threw ${firstLine(e)}`;
    }
    const ms = Math.round(performance.now() - started);
    const at = menu.legal.findIndex((c) => c.move === move);
    if (at < 0) return `no hint: ${label} answered an illegal move (${String(move)})`;
    return `hint from ${label}: ${menu.legal[at].name} (${at + 1}) · ${ms} ms`;
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}
