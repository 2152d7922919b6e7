/**
 * The built-in bots' names (registry.ts has the bots): what `--program` may not call a
 * bot program. A list of its own so that the command line checks its flags without
 * loading the bots and the games; test/bot-names.test.ts keeps it the registry's.
 */
export const BUILTIN_BOT_NAMES: readonly string[] = ['random', 'heuristic', 'montecarlo', 'ismcts', 'pimc', 'oracle'];
