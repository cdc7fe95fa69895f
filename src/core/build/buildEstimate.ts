// What the confirmation gate says a build may cost before it starts: a range of tokens and dollars,
// from each phase's role (its prompt, its model, its turn limit) and the brief's size. It is an
// estimate and says so: the low end is a phase that finishes in a few turns, the high end one that
// uses every turn its role allows with a growing conversation. The cache is not counted, so the
// real figure is usually below the high end.
import type { ModelSettings } from '../llm/models';
import { resolveModel } from '../llm/models';
import type { PriceTable } from '../llm/usage';
import { costOf } from '../llm/usage';
import type { Role } from '../roles/roleSchema';

/** Characters per token, roughly, for English text and code. */
const CHARS_PER_TOKEN = 4;
/** Turns a phase takes at the least. */
const LOW_TURNS = 3;
/** What each turn adds to the conversation (a file written or read, a command's output), in tokens. */
const GROWTH_PER_TURN = 1_500;
/** Output tokens per turn, low and high. */
const OUTPUT_LOW = 300;
const OUTPUT_HIGH = 2_000;

export interface PhaseEstimate {
  phase: string;
  role: string;
  model: string;
  maxTurns: number;
  tokens: { low: number; high: number };
  costUsd?: { low: number; high: number };
}

export interface BuildEstimate {
  phases: PhaseEstimate[];
  tokens: { low: number; high: number };
  /** Absent when a phase's model has no price. */
  costUsd?: { low: number; high: number };
}

function tokensOf(turns: number, base: number, output: number): { input: number; output: number } {
  // Turn n sends the base prompt and what n-1 earlier turns added.
  const input = turns * base + (GROWTH_PER_TURN * turns * (turns - 1)) / 2;
  return { input, output: turns * output };
}

export function estimateBuild(
  phases: readonly { name: string; role: Role }[],
  briefChars: number,
  settings: ModelSettings = {},
  prices?: PriceTable,
): BuildEstimate {
  const estimates = phases.map(({ name, role }): PhaseEstimate => {
    const model = resolveModel(role.model, settings);
    const base = Math.ceil((role.prompt.length + briefChars) / CHARS_PER_TOKEN);
    const low = tokensOf(Math.min(LOW_TURNS, role.maxTurns), base, OUTPUT_LOW);
    const high = tokensOf(role.maxTurns, base, OUTPUT_HIGH);
    const usage = (t: { input: number; output: number }) => ({
      inputTokens: Math.round(t.input),
      outputTokens: t.output,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
    });
    const costLow = costOf(model, usage(low), prices);
    const costHigh = costOf(model, usage(high), prices);
    return {
      phase: name,
      role: role.name,
      model,
      maxTurns: role.maxTurns,
      tokens: { low: Math.round(low.input + low.output), high: Math.round(high.input + high.output) },
      ...(costLow !== undefined && costHigh !== undefined ? { costUsd: { low: costLow, high: costHigh } } : {}),
    };
  });
  const sum = (pick: (e: PhaseEstimate) => number) => estimates.reduce((n, e) => n + pick(e), 0);
  const priced = estimates.every((e) => e.costUsd !== undefined);
  return {
    phases: estimates,
    tokens: { low: sum((e) => e.tokens.low), high: sum((e) => e.tokens.high) },
    ...(priced ? { costUsd: { low: sum((e) => e.costUsd?.low ?? 0), high: sum((e) => e.costUsd?.high ?? 0) } } : {}),
  };
}

/** `120k–4.1M tokens, $0.40–$31.00 (an estimate)`. */
export function estimateText(estimate: BuildEstimate): string {
  const tokens = `${compact(estimate.tokens.low)}–${compact(estimate.tokens.high)} tokens`;
  const cost = estimate.costUsd
    ? `, $${estimate.costUsd.low.toFixed(2)}–$${estimate.costUsd.high.toFixed(2)}`
    : ', cost unknown (a model without a price)';
  return `${tokens}${cost} (an estimate)`;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(n);
}

/**
 * Why a build with the cost ceiling `maxCostUsd` cannot start on `estimate`, or undefined: a
 * ceiling cannot hold over a model whose price Groundwork does not know (its cost would go
 * uncounted). `howToPrice` says how the front end takes a price.
 */
export function ceilingProblem(
  estimate: BuildEstimate,
  maxCostUsd: number | undefined,
  howToPrice: string,
): string | undefined {
  if (maxCostUsd === undefined || estimate.costUsd !== undefined) return undefined;
  const models = [...new Set(estimate.phases.filter((p) => p.costUsd === undefined).map((p) => p.model))];
  return `The build has a cost ceiling of $${maxCostUsd.toFixed(2)}, but Groundwork knows no price for ${models.join(', ')}, so what the build spends could not be counted and the ceiling could not hold. ${howToPrice}`;
}
