// What `groundwork cases` prints: a case as one readable line, the metrics as lines, the staleness
// check's changes. A case's content and labels come from agents, people and cloned repositories:
// everything here goes through visibleText, so no control character or escape reaches a terminal.
import type { DiscoveryMetrics } from '../../core/cases/caseMetrics';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import type { StalenessReport } from '../../core/cases/caseService';
import { oneLine } from '../../core/tools/toolLines';
import { visibleText } from '../../core/visibleText';

/** A listed case keeps this much of its content. */
const CONTENT_CHARS = 100;
/** The metrics name this many source tasks, then how many more. */
const TASKS_SHOWN = 10;

/** `disc-004  active    global  high      Architecture  Login lives in src/auth.ts…`; ids padded to `idWidth`. */
export function caseLine(c: DiscoveryCase, idWidth = 8): string {
  const m = c.metadata;
  return [
    c.id.padEnd(idWidth),
    c.status.padEnd(8),
    m.scope.padEnd(6),
    m.impact.padEnd(8),
    m.category.padEnd(12),
    oneLine(c.content, CONTENT_CHARS),
  ].join('  ');
}

/** One case's status and scope after a change: `(now active, global)`. */
export function caseState(c: DiscoveryCase): string {
  return `${c.status}, ${c.metadata.scope}`;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

function counts(record: Readonly<Record<string, number>>): string {
  return Object.entries(record)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

/** The discovery metrics (docs/discovery-cases.md, "Metrics") as lines a person reads. */
export function metricsLines(m: DiscoveryMetrics): string[] {
  const tasks = m.sourceTasks.slice(0, TASKS_SHOWN).map((t) => `${oneLine(t.taskId, 60)} (${t.cases})`);
  if (m.sourceTasks.length > TASKS_SHOWN) tasks.push(`and ${m.sourceTasks.length - TASKS_SHOWN} more`);
  return [
    `Discovery cases: ${m.total}`,
    `  by status: ${counts(m.byStatus)}`,
    `  by scope: ${counts(m.byScope)}`,
    `  by impact: ${counts(m.byImpact)}`,
    `Duplicates prevented: ${m.duplicatesPrevented}`,
    `Source tasks: ${tasks.length === 0 ? 'none' : tasks.join(', ')}`,
    `Injected per prompt: ${m.injectedPerPrompt.global} global, ${m.injectedPerPrompt.local} local (on average, for an agent with local cases)`,
    `Validation rate: ${percent(m.validationRate)}`,
    `Outdated rate: ${percent(m.outdatedRate)}`,
  ];
}

/** One line per change the staleness check made, in the order it made them. */
export function stalenessLines(report: StalenessReport, archiveAfterDays: number): string[] {
  const days = archiveAfterDays === 1 ? '1 day' : `${archiveAfterDays} days`;
  return [
    ...report.findings.map(
      (f) =>
        `${f.id} outdated: ${f.files.map((p) => visibleText(p)).join(', ')} changed in ${visibleText(f.commit.slice(0, 7))}`,
    ),
    ...report.superseded.map((s) => `${s.id} outdated: superseded by ${s.supersededBy}`),
    ...report.archived.map((c) => `${c.id} archived: outdated and unreviewed for ${days} or more`),
  ];
}
