// What the build's confirmation gate says before anything starts (docs/build-phases.md,
// REQ-BDP-011): the checks the workspace's workflow or role files weaken (first, as a warning),
// the brief's first lines, each phase with its role and concrete model, where the project will be
// written, and an estimate of tokens and cost, said to be one. Pure (no vscode):
// the words come in localized, buildFeature.ts shows the text in a modal,
// test/unit/vscode/build/buildGate.test.ts checks it.
import type { BuildEstimate } from '../../core/build/buildEstimate';
import { visibleText } from '../../core/visibleText';

/** The brief's lines the gate shows, at most, each cut to BRIEF_LINE_CHARS. */
const BRIEF_LINES = 5;
const BRIEF_LINE_CHARS = 140;

export interface GateWords {
  phases: string;
  /** "{model}, up to {n} turns". */
  model: (model: string, turns: number) => string;
  /** "{model}, up to {n} turns, role {role}": a phase whose role is not the default build-<phase>. */
  modelAndRole: (model: string, turns: number, role: string) => string;
  /** "Project folder: {where}". */
  where: (where: string) => string;
  /** "Estimate: {tokens} tokens, {cost} …(an estimate)". */
  estimate: (tokens: string, cost: string) => string;
  /** The estimate when a phase's model has no price. */
  estimateUnpriced: (tokens: string) => string;
  ceiling: (usd: string) => string;
  noCeiling: string;
  /** The warning above the weaker checks: "Warning: this workspace weakens Groundwork's checks:". */
  weaker: string;
}

export interface GateInput {
  /** The brief as the analyst gets it. */
  brief: string;
  estimate: BuildEstimate;
  /** Where the project is written, in words. */
  where: string;
  maxCostUsd?: number;
  /** What the workspace's workflow and role files weaken (core/build/weakerChecks.ts); none: nothing said. */
  weaker?: readonly string[];
}

/** The modal's detail: the weaker checks (when there are), the brief, the phases, where, the estimate and the ceiling, in paragraphs. */
export function gateDetail(input: GateInput, words: GateWords): string {
  const { estimate } = input;
  const tokens = `${compact(estimate.tokens.low)}–${compact(estimate.tokens.high)}`;
  const cost = estimate.costUsd
    ? `$${estimate.costUsd.low.toFixed(2)}–$${estimate.costUsd.high.toFixed(2)}`
    : undefined;
  const weaker = input.weaker ?? [];
  return [
    ...(weaker.length === 0 ? [] : [[words.weaker, ...weaker.map((line) => `  • ${visibleText(line)}`)].join('\n')]),
    briefLines(input.brief).join('\n'),
    // One short line per phase: the dialog's font is proportional and its lines wrap, so nothing is aligned in columns.
    [`${words.phases}:`, ...estimate.phases.map((p) => `  ${visibleText(p.phase)} — ${phaseText(p, words)}`)].join(
      '\n',
    ),
    [
      words.where(input.where),
      cost === undefined ? words.estimateUnpriced(tokens) : words.estimate(tokens, cost),
      input.maxCostUsd === undefined ? words.noCeiling : words.ceiling(`$${input.maxCostUsd.toFixed(2)}`),
    ].join('\n'),
  ].join('\n\n');
}

function phaseText(p: BuildEstimate['phases'][number], words: GateWords): string {
  const model = visibleText(p.model);
  return p.role === `build-${p.phase}`
    ? words.model(model, p.maxTurns)
    : words.modelAndRole(model, p.maxTurns, visibleText(p.role));
}

/** The brief's first non-empty lines, markdown headings and list marks taken off, each cut; "…" when there is more. */
export function briefLines(brief: string): string[] {
  const lines = brief
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(#{1,6}\s+|[-*+]\s+)/, '').trim())
    .filter((l) => l !== '');
  const shown = lines.slice(0, BRIEF_LINES).map((l) => cut(visibleText(l), BRIEF_LINE_CHARS));
  return lines.length > BRIEF_LINES ? [...shown, '…'] : shown;
}

/** `950`, `12k`, `4.1M`. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(Math.round(n));
}

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
