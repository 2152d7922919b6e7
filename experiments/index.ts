/**
 * The built-in experiments, by name: `tafel experiment NAME` makes one's plan from its
 * flags and runs it; `tafel experiment PLAN.json` runs a saved plan through the
 * experiment it names (`plan` for a user's own).
 */
import { experiment as anderlePot } from './anderle-pot.js';
import type { Experiment } from './experiment.js';
import { experiment as hinderscheMarches } from './hindersche-marches.js';
import { ladder } from './ladder.js';
import { experiment as pimcProperties } from './pimc-properties.js';
import { experiment as tune } from './tune.js';
import { userPlan } from './user-plan.js';
import { versus } from './versus.js';

export const EXPERIMENTS: readonly Experiment[] = [
  hinderscheMarches,
  anderlePot,
  ladder,
  versus,
  pimcProperties,
  tune,
  userPlan,
];

export function findExperiment(name: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}
