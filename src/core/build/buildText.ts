// What a build's record adds up to, in numbers and in words: its total tokens and cost, each
// phase's duration, and the sentence a failed or stopped build ends with (docs/build-phases.md,
// "Failing gracefully": which phase, what finished, what failed, where the partial results are).
import { addUsage } from '../llm/usage';
import type { LlmUsage } from '../llm/llmClient';
import type { BuildRecord, PhaseState } from './buildTypes';

/** The build's tokens and cost: the sum of every attempt's. */
export function buildTotals(build: BuildRecord): { usage?: LlmUsage; costUsd?: number } {
  let usage: LlmUsage | undefined;
  let cost: number | undefined;
  for (const attempt of build.phases.flatMap((p) => p.attempts)) {
    if (attempt.usage !== undefined) usage = usage === undefined ? attempt.usage : addUsage(usage, attempt.usage);
    if (attempt.costUsd !== undefined) cost = (cost ?? 0) + attempt.costUsd;
  }
  return { ...(usage ? { usage } : {}), ...(cost !== undefined ? { costUsd: cost } : {}) };
}

/** A phase's tokens and cost, over its attempts. */
export function phaseTotals(phase: PhaseState): { tokens: number; costUsd?: number; durationMs?: number } {
  let tokens = 0;
  let cost: number | undefined;
  let ms: number | undefined;
  for (const a of phase.attempts) {
    if (a.usage)
      tokens += a.usage.inputTokens + a.usage.outputTokens + a.usage.cacheReadTokens + a.usage.cacheCreationTokens;
    if (a.costUsd !== undefined) cost = (cost ?? 0) + a.costUsd;
    if (a.endedAt !== undefined) ms = (ms ?? 0) + Math.max(0, Date.parse(a.endedAt) - Date.parse(a.startedAt));
  }
  return { tokens, ...(cost !== undefined ? { costUsd: cost } : {}), ...(ms !== undefined ? { durationMs: ms } : {}) };
}

/** The names of the phases that passed, in order. */
export function passedNames(build: BuildRecord): string[] {
  return build.phases.filter((p) => p.status === 'passed').map((p) => p.name);
}

/** The phase a failed or stopped build ended in: the first that did not pass. */
export function stoppedPhase(build: BuildRecord): PhaseState | undefined {
  return (
    build.phases.find((p) => p.status === 'failed' || p.status === 'stopped' || p.status === 'running') ??
    build.phases.find((p) => p.status !== 'passed')
  );
}

/** A failed build's last sentence: which phase, what failed, what finished, where the partial results are. */
export function failedBuildReason(build: BuildRecord, why: string): string {
  const phase = stoppedPhase(build);
  const finished = passedNames(build);
  const where =
    build.projectDir === undefined
      ? 'No project folder was made yet.'
      : `Partial results are in ${build.projectDir === '.' ? 'the workspace folder' : `${build.projectDir}/`}.`;
  return [
    phase === undefined ? why : `Phase ${phase.name} ${phase.status === 'stopped' ? 'was stopped' : 'failed'}: ${why}`,
    finished.length === 0 ? 'No phase finished.' : `Finished: ${finished.join(', ')}.`,
    where,
  ].join(' ');
}

/** `1.2 s`, `3 min 4 s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `$0.0123`, or `–` when unknown. */
export function formatCost(usd: number | undefined): string {
  return usd === undefined ? '–' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}
