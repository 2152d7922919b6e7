/**
 * The environment's side of env protocol v1 (docs/env.md): K tables stepped together,
 * one message in and one out per step. `hello` is the first line tafel writes; then each
 * `reset` or `step` from the learner gets one `obs` line holding an entry per table.
 */
import { TafelError } from '../../core/errors.js';
import { seedKey } from '../../core/rng.js';
import type { Json } from '../../games/game.js';
import { SEED, SEED_RULE } from '../run/flag-rules.js';
import { EnvTable, type EnvSpec } from './table.js';

const ENV_PROTOCOL = 1;

type Obj = { readonly [key: string]: Json };

export class EnvSession {
  private readonly tables: EnvTable[];
  private started = false;

  constructor(
    private readonly spec: EnvSpec,
    private seed: string,
  ) {
    this.tables = Array.from({ length: spec.tables }, (_, t) => new EnvTable(spec, t));
  }

  /** The `env` line: what the learner is playing, and the action names. */
  hello(): Obj {
    const { game, table, opponents, unit, tables, actions } = this.spec;
    const metrics = unit === 'deal' ? game.dealMetrics : game.matchMetrics;
    return {
      type: 'env',
      protocol: ENV_PROTOCOL,
      game: game.name,
      players: table.seats,
      rules: table.rules,
      seats: opponents.flatMap((e, s) => (e === null ? [s] : [])),
      opponents: opponents.map((e) => (e === null ? null : e.label)),
      tables,
      unit,
      seed: this.seed,
      metric: { key: metrics[0].key, higherIsBetter: metrics[0].higherIsBetter, description: metrics[0].description },
      actions: actions.names,
    };
  }

  /** Answer one message: the line to write, or null for `quit`. Bad messages throw (`protocol`). */
  handle(msg: Obj): Obj | null {
    switch (msg.type) {
      case 'reset':
        return this.reset(msg);
      case 'step':
        return this.step(msg);
      case 'quit':
        return null;
      default:
        throw new TafelError('protocol', `unknown message type ${JSON.stringify(msg.type)} (reset, step or quit)`);
    }
  }

  private reset(msg: Obj): Obj {
    const seed = msg.seed;
    if (seed !== undefined && seed !== null) {
      const text = typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 ? String(seed) : seed;
      if (typeof text !== 'string' || !SEED.test(text))
        throw new TafelError('protocol', `reset: seed ${JSON.stringify(seed)} must be ${SEED_RULE}, or a whole number`);
      this.seed = text;
      this.started = false;
    }
    let entries: Obj[];
    if (!this.started) {
      const key = seedKey(this.seed);
      entries = this.tables.map((t) => t.reset(key));
      this.started = true;
    } else entries = this.tables.map((t) => t.restart());
    return { type: 'obs', tables: entries };
  }

  private step(msg: Obj): Obj {
    if (!this.started) throw new TafelError('protocol', 'step before the first reset');
    const actions = msg.actions;
    if (!Array.isArray(actions) || actions.length !== this.tables.length)
      throw new TafelError('protocol', `step: 'actions' must be a list of ${this.tables.length} action indices`);
    return { type: 'obs', tables: this.tables.map((t, i) => t.step((actions as readonly Json[])[i])) };
  }
}
