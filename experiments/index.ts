/**
 * The built-in experiments, by name: `tafel experiment NAME` makes one's plan from its
 * flags and runs it; `tafel experiment PLAN.json` runs a saved plan through the
 * experiment it names (`plan` for a user's own).
 */
import type { Experiment } from './experiment.js';
import { ladder } from './ladder.js';
import { userPlan } from './user-plan.js';
import { versus } from './versus.js';

export const EXPERIMENTS: readonly Experiment[] = [ladder, versus, userPlan];

export function findExperiment(name: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}
