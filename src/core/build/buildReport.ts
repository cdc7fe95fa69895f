// `report.md`: what a build made and what Groundwork verified, opened in the markdown preview at the
// end, and the lines the CLI prints. Every field that came from a model (the delivery summary, a
// reason, a command's output) is untrusted: shown as text, never as HTML or an image to fetch.
import { fenced, neutralizeInline, neutralizeMarkdown } from '../markdownText';
import { visibleText } from '../visibleText';
import { formatCost, formatDuration, phaseTotals, stoppedPhase } from './buildText';
import { evidenceSections, evidenceSummaryLines } from './buildReportEvidence';
import { weakerChecksReport } from './weakerChecks';
import type { BuildRecord } from './buildTypes';
import { specFormatName } from './externalSpec';

/** The most files and discoveries the report lists. */
export const REPORT_LIST_MAX = 200;

export interface ReportExtras {
  /** Files the build's runs created, relative to the project folder. */
  created: readonly string[];
  /** Learnings its phases reported (the journal's entries whose task is the build's id). */
  discoveries?: readonly string[];
}

const STATUS_WORDS: Record<BuildRecord['status'], string> = {
  running: 'running',
  completed: 'completed: every phase and the final verification passed Groundwork’s check',
  failed: 'failed',
  stopped: 'stopped',
};

function code(text: string): string {
  const clean = visibleText(text).replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(Math.max(1, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${clean}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** Text of several lines (an output, a summary), each line made visible, its line breaks kept. */
function visibleLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.split('\t').map(visibleText).join('\t'))
    .join('\n');
}

function inline(text: string): string {
  return neutralizeInline(visibleText(text).replace(/[\r\n]+/g, ' ')).replace(/\|/g, '\\|');
}

export function buildReport(build: BuildRecord, extras: ReportExtras): string {
  const out: string[] = [];
  const title = build.summary?.project ?? build.projectName ?? build.id;
  out.push(`# Build report: ${inline(title)}`, '');
  out.push(`- **Status:** ${STATUS_WORDS[build.status]}`);
  out.push(`- **Build:** ${code(build.id)}`);
  const from =
    build.input !== undefined
      ? `the ${specFormatName(build.input.format)} ${code(build.input.path)}`
      : build.source.kind === 'brief'
        ? `the brief ${code(build.source.path)}`
        : `the brainstorm ${code(build.source.slug)}`;
  out.push(`- **From:** ${from}`);
  out.push(
    `- **Location:** ${build.projectDir === undefined ? 'no project folder yet' : code(build.projectDir === '.' ? '. (the workspace folder)' : `${build.projectDir}/`)}`,
  );
  if (build.summary?.language) out.push(`- **Language:** ${inline(build.summary.language)}`);
  const total = build.endedAt ? Date.parse(build.endedAt) - Date.parse(build.startedAt) : undefined;
  if (total !== undefined && Number.isFinite(total)) out.push(`- **Took:** ${formatDuration(total)}`);
  out.push(
    `- **Cost:** ${formatCost(build.costUsd)}${build.maxCostUsd !== undefined ? ` (ceiling $${build.maxCostUsd.toFixed(2)})` : ''}`,
  );
  out.push('');
  if (build.status !== 'completed' && build.reason) {
    out.push('## What stopped it', '', neutralizeMarkdown(visibleText(build.reason)), '');
    const phase = stoppedPhase(build);
    const last = phase?.attempts[phase.attempts.length - 1];
    if (last?.evidence) out.push('Evidence:', '', fenced(visibleLines(last.evidence)), '');
    out.push('Resume continues from that phase; Rerun Phase runs a phase again.', '');
  }
  if (build.summary) {
    out.push('## What was built', '', neutralizeMarkdown(visibleLines(build.summary.summary)), '');
    out.push('## How to run it', '', neutralizeMarkdown(visibleLines(build.summary.usage)), '');
    if (build.projectDir !== undefined)
      out.push(`More in ${code(`${build.projectDir === '.' ? '' : `${build.projectDir}/`}docs/USAGE.md`)}.`, '');
  }
  out.push('## Verified by Groundwork', '');
  if (build.verified.length === 0) out.push('No command was re-run.', '');
  else {
    out.push('| Phase | Command | Exit code |', '| --- | --- | --- |');
    // A '|' ends a table cell even inside a code span unless escaped (GFM), and the escape is taken out again there.
    for (const v of build.verified)
      out.push(
        `| ${inline(v.phase)} | ${code(v.command).replace(/\|/g, '\\|')} | ${v.exitCode === null ? 'not run' : v.exitCode} |`,
      );
    out.push('');
    const failing = build.verified.filter((v) => v.exitCode !== 0 && v.output);
    for (const v of failing.slice(-3))
      out.push(
        `Output of ${code(v.command)} (${inline(v.phase)}, ${v.exitCode === null ? 'not run' : `exit ${v.exitCode}`}):`,
        '',
        fenced(visibleLines(v.output ?? '')),
        '',
      );
  }
  out.push(...weakerChecksReport(build.weaker ?? []));
  out.push(...evidenceSections(build));
  out.push(
    '## Phases',
    '',
    '| Phase | Status | Tries | Duration | Tokens | Cost |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const phase of build.phases) {
    const t = phaseTotals(phase);
    out.push(
      `| ${inline(phase.name)} | ${phase.status} | ${phase.attempts.length} | ${t.durationMs === undefined ? '–' : formatDuration(t.durationMs)} | ${t.tokens === 0 ? '–' : t.tokens.toLocaleString('en-US')} | ${formatCost(t.costUsd)} |`,
    );
  }
  out.push('');
  const failedTries = build.phases.flatMap((p) =>
    p.attempts
      .filter((a) => a.status === 'failed' && a.reason)
      .map((a) => ({ phase: p.name, reason: a.reason as string })),
  );
  if (failedTries.length > 0) {
    out.push('Tries that failed:', '');
    for (const f of failedTries.slice(-10)) out.push(`- ${inline(f.phase)}: ${inline(f.reason.slice(0, 500))}`);
    out.push('');
  }
  const discoveries = extras.discoveries ?? [];
  out.push('## Discoveries', '');
  if (discoveries.length === 0) out.push('None reported.', '');
  else out.push(...discoveries.slice(0, REPORT_LIST_MAX).map((d) => `- ${inline(d.slice(0, 500))}`), '');
  out.push('## Files created', '');
  if (extras.created.length === 0) out.push('None.', '');
  else {
    out.push(...extras.created.slice(0, REPORT_LIST_MAX).map((f) => `- ${code(f)}`));
    if (extras.created.length > REPORT_LIST_MAX) out.push(`- … and ${extras.created.length - REPORT_LIST_MAX} more`);
    out.push('');
  }
  return out.join('\n');
}

/** The CLI's closing lines: the same summary, shorter. */
export function buildSummaryLines(build: BuildRecord): string[] {
  const lines = [`Build ${build.id}: ${build.status}`];
  if (build.projectDir !== undefined)
    lines.push(`  project: ${visibleText(build.projectDir === '.' ? '.' : `${build.projectDir}/`)}`);
  for (const phase of build.phases) {
    const t = phaseTotals(phase);
    lines.push(
      `  ${phase.name.padEnd(12)} ${phase.status.padEnd(8)} ${t.durationMs === undefined ? '' : formatDuration(t.durationMs).padEnd(9)} ${formatCost(t.costUsd)}`.trimEnd(),
    );
  }
  for (const v of build.verified)
    lines.push(`  verified: ${visibleText(v.command)} → ${v.exitCode === null ? 'not run' : `exit ${v.exitCode}`}`);
  lines.push(...evidenceSummaryLines(build));
  if (build.summary) lines.push(`  usage: ${visibleText(build.summary.usage.split('\n')[0] ?? '')}`);
  if (build.reason) lines.push(`  ${visibleText(build.reason)}`);
  lines.push(`  total: ${formatCost(build.costUsd)}`);
  return lines;
}
