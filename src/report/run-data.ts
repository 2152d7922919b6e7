/**
 * A run's report data from its spec, its tally and its digest: the same whether the
 * groups came from the live run or from its journal read back, so `run --report` and
 * `tafel report JOURNAL` draw the same page.
 */
import type { Game } from '../games/game.js';
import { headToHeadBound } from '../harness/stats/rating.js';
import { botText, commandOf, rulesText, type RunSpec } from '../harness/run/spec.js';
import { shardRange, shardText } from '../harness/run/shard.js';
import type { RunTally, SectionTally } from '../harness/stats/tally.js';
import type { BotInfo, Distribution, Identity, RatingData, RunData, SectionData, SprtData } from './data.js';
import type { RunDigest } from './digest.js';
import { binned, type ValueCounts } from './histogram.js';
import { whole } from './format.js';

/** The per-seat values of the deal metrics, from a per-deal CSV: values[metric][entrant]. */
export type DealValues = readonly (readonly ValueCounts[])[];

export interface RunParts {
  readonly identity: Identity;
  readonly game: Game;
  /** The entrants, in the tally's order. */
  readonly bots: readonly BotInfo[];
  readonly tally: RunTally;
  readonly digest: RunDigest;
  /** The SPRT the digest recomputed, as `--sprt` took it, or null. */
  readonly sprt: string | null;
  readonly dealValues: DealValues | null;
  readonly notes: readonly string[];
}

export function runData(p: RunParts): RunData {
  const { tally, bots } = p;
  const sections: SectionData[] = [section(p, 'deal', tally.deal)];
  if (tally.match) sections.push(section(p, 'match', tally.match));
  const notes = [...p.notes];
  if (!p.dealValues) {
    notes.push(
      'The distributions are of each bot’s mean per duplicate group; the run’s per-deal CSV (--deal-csv) gives them per seat and deal.',
    );
  }
  const sprt = p.sprt ? sprtData(p.sprt, p.game, tally.match ? 'match' : 'deal', bots, p.digest) : null;
  return { kind: 'run', identity: p.identity, sections, sprt, notes };
}

/** The runs tafel plays name their bots and say what they are in the spec. */
export function botsOf(spec: RunSpec): BotInfo[] {
  return spec.entrants.map((e) => ({ label: e.label, cheats: e.cheats }));
}

function section(p: RunParts, unit: 'deal' | 'match', tallied: SectionTally): SectionData {
  const { bots } = p;
  const label = (e: number) => bots[e].label;
  const digest = unit === 'deal' ? p.digest.deal : p.digest.match!;
  const metrics = tallied.metrics.map((m) => ({
    key: m.key,
    description: m.description,
    higherIsBetter: m.higherIsBetter,
    binary: m.binary === true,
  }));
  const pairs = tallied.pairRows();
  const headline = metrics[0].key;
  const running = pairs
    .filter((r) => r.metric === headline)
    .map((r, i) => ({
      bot: label(r.bot),
      opponent: label(r.opponent),
      metric: headline,
      points: digest.running[i].points(),
    }));
  const fromDeals = unit === 'deal' ? (p.dealValues ?? null) : null;
  const distributions: Distribution[] = [];
  metrics.forEach((m, i) => {
    if (m.binary) return;
    const values = fromDeals ? fromDeals[i] : digest.values[i];
    const perBot = bots.map((b, e) => ({ bot: b.label, values: values[e] }));
    distributions.push(binned(m.key, fromDeals ? 'seat-deal' : 'group', perBot));
  });
  return {
    unit,
    groups: tallied.groups,
    metrics,
    bots,
    means: tallied.botRows().map((r) => ({
      bot: label(r.bot),
      metric: r.metric,
      estimate: r.estimate,
      rate: r.rate ?? null,
    })),
    pairs: pairs.map((r) => ({
      bot: label(r.bot),
      opponent: label(r.opponent),
      metric: r.metric,
      estimate: r.estimate,
    })),
    rating: rating(tallied, bots),
    running,
    distributions,
  };
}

/** As the summary has it: head to head for two bots, Bradley-Terry for more. */
function rating(s: SectionTally, bots: readonly BotInfo[]): RatingData | null {
  const metric = s.metrics[0].key;
  if (s.groups === 0 || bots.length < 2) return null;
  if (bots.length === 2) {
    const wdl = s.outcomes.wdl(0, 1);
    const h = headToHeadBound(wdl);
    return {
      kind: 'head-to-head',
      metric,
      bot: bots[0].label,
      opponent: bots[1].label,
      groups: h.n,
      elo: h.elo,
      low: h.low,
      high: h.high,
      interval: h.wilson ? 'wilson-elo' : 'logistic',
      wdl,
      los: h.los,
    };
  }
  const { table, prior } = s.ratings();
  return {
    kind: 'bradley-terry',
    metric,
    prior,
    rows: table.ratings.map((r, e) => ({
      bot: bots[e].label,
      elo: r.elo,
      low: r.low,
      high: r.high,
      groups: s.groupsPlayed(e),
      score: r.score,
    })),
  };
}

/** The SPRT of a two-bot run as the digest recomputed it, with its walk. */
export function sprtData(
  text: string,
  game: Game,
  unit: 'deal' | 'match',
  bots: readonly BotInfo[],
  digest: RunDigest,
): SprtData | null {
  const test = digest.sprt;
  if (!test) return null;
  const metric = unit === 'match' ? game.matchMetrics[0].key : game.dealMetrics[0].key;
  return {
    test: text,
    metric: test.spec.kind === 'elo' ? `${metric} (Elo of winning a group)` : metric,
    bot: bots[0].label,
    opponent: bots[1].label,
    bounds: test.bounds,
    groups: test.n,
    llr: test.llr,
    decision: test.decision,
    walk: digest.walkPoints(),
  };
}

/** A run's identity from its spec: what was run, how much of it, when, and the command that plays it again. */
export function runIdentity(
  spec: RunSpec,
  game: Game,
  played: {
    readonly tally: RunTally;
    /** Groups dropped after a bot failed in them. */
    readonly skipped: number;
    /** The SPRT decided, which ends a run early. */
    readonly decided: boolean;
    /** When it was played, as the inputs tell it. */
    readonly when: string;
    readonly sources: readonly string[];
  },
): Identity {
  const { tally, skipped } = played;
  const units = spec.unit === 'deal' ? 'deals' : 'matches';
  const { from, to } = shardRange(spec.groups, spec.shard);
  const present = tally.groups + skipped;
  const size = [
    `${whole(tally.groups)} duplicate ${units} (groups) × ${spec.seatings.length} seat rotation${spec.seatings.length === 1 ? '' : 's'}, ${whole(tally.deals)} deals played`,
  ];
  if (present < to - from) {
    const part = `${whole(present)} of ${whole(to - from)} groups`;
    size.push(played.decided ? `stopped by the SPRT's decision after ${part}` : `unfinished: ${part}`);
  }
  if (skipped) size.push(`${whole(skipped)} dropped after a bot failed in them`);
  const facts: [string, string][] = [
    ['game', `${spec.game}: ${game.title}`],
    ['players', String(spec.seats)],
    ['rules', Object.keys(spec.rules).length ? rulesText(spec.rules).replace(/;/g, ', ') : 'none (no variants)'],
    [
      'bots',
      spec.entrants.map((e) => `${e.label} = ${botText(e)}${e.cheats ? ' (cheats: sees every hand)' : ''}`).join('; '),
    ],
    ['seats', spec.seatings[0].map((e) => spec.entrants[e].label).join(', ') + ' (rotation 0)'],
    ['seed', spec.seed],
    ['size', size.join('; ')],
  ];
  if (spec.shard) facts.push(['shard', `${shardText(spec.shard)}: groups ${from} to ${to - 1}`]);
  if (spec.sprt) facts.push(['SPRT', spec.sprt]);
  facts.push(['time', played.when], ['tafel', spec.tafel]);
  const labels = spec.entrants.map((e) => e.label).join(', ');
  return {
    title: `${spec.game}: ${labels}, ${whole(spec.groups)} ${units}, seed ${spec.seed}`,
    facts,
    command: commandOf(spec),
    sources: played.sources,
  };
}
