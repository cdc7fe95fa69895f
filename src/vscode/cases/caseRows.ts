// The Discoveries group of the plan explorer as data: the discovery cases of
// `.groundwork/cases.jsonl` by status (Active, Outdated, Archived, Deleted), then by scope and
// impact ("Global · high"), then one row per case; one error row when lines of the file cannot be
// read; the discovery metrics as the group's tooltip (docs/discovery-cases.md, "Metrics"). Pure (no
// vscode, no disk): the words come in from the caller (casesWords.ts, localized there),
// planExplorer.ts turns the rows into TreeItems, and test/unit/vscode/cases/caseRows.test.ts checks
// them. A case's content and labels come from agents, people and cloned repositories: a label is
// one visible line, a tooltip plain text (the tree escapes it).
import type { DiscoveryMetrics } from '../../core/cases/caseMetrics';
import type { CaseFacts } from '../../core/explorer/explorerTree';
import type {
  ArchiveReason,
  CaseImpact,
  CaseScope,
  CaseStatus,
  DiscoveryCase,
  OutdatedReason,
} from '../../core/cases/caseRecord';
import type { ReadProblem } from '../../core/storage/recordLog';
import { visibleText } from '../../core/visibleText';
import { runTime, type RowLook } from '../explorer/rowLook';

/** The cases one scope-and-impact row lists; past them a row says how many more there are. */
export const CASES_SHOWN = 100;
/** The unreadable lines the error row's tooltip names. */
const PROBLEMS_SHOWN = 20;
const LABEL_CHARS = 80;
const TOOLTIP_CONTENT_CHARS = 1500;

const STATUSES: readonly CaseStatus[] = ['active', 'outdated', 'archived', 'deleted'];
const SCOPES: readonly CaseScope[] = ['global', 'local'];
/** Most to least: the rows of a status list the weightiest first. */
const IMPACTS: readonly CaseImpact[] = ['critical', 'high', 'medium', 'low'];

/** How a row looks, and its tree item's id: unique in the whole tree, stable across reads (VS Code keeps expansion by it). */
type Look = RowLook & { treeId: string };

export type CasesRow =
  | (Look & { kind: 'status'; status: CaseStatus; expanded: boolean; children: CasesRow[] })
  | (Look & { kind: 'bucket'; expanded: boolean; children: CasesRow[] })
  /** contextValue `groundwork.case.<status>.<scope>`. */
  | (Look & { kind: 'case'; id: string; status: CaseStatus; scope: CaseScope })
  | (Look & { kind: 'note' })
  /** The unreadable lines of cases.jsonl (or the file itself); `line`: where a click opens the file. */
  | (Look & { kind: 'problem'; line?: number });

export interface CasesListing {
  /** The status rows, then the error row when some lines cannot be read. */
  rows: CasesRow[];
  /** Every case, whatever its status. */
  total: number;
  /** The group's tooltip: the discovery metrics, as paragraphs of plain text. */
  tooltip: string[];
  /** Each case's task and parent, for the plans: a plan lists the cases its builds reported (core/explorer). */
  related: CaseFacts[];
  /** The rows of these cases (a plan's), in the order given; an id the file lacks is left out. */
  rowsOf(ids: readonly string[]): CasesRow[];
}

/** The words of the rows, localized by the caller. */
export interface CaseWords {
  status: Readonly<Record<CaseStatus, string>>;
  scope: Readonly<Record<CaseScope, string>>;
  impact: Readonly<Record<CaseImpact, string>>;
  outdatedReason: Readonly<Record<OutdatedReason, string>>;
  archiveReason: Readonly<Record<ArchiveReason, string>>;
  validated: string;
  /** "Impact: high · Category: Testing · Global". */
  facts: (impact: string, category: string, scope: string) => string;
  task: (task: string) => string;
  agent: (agent: string) => string;
  byPerson: string;
  created: (when: string) => string;
  updated: (when: string) => string;
  validatedOn: (when: string) => string;
  outdated: (when: string, reason: string) => string;
  commit: (hash: string) => string;
  supersededBy: (id: string) => string;
  archived: (when: string, reason: string) => string;
  resurrected: (when: string) => string;
  deleted: (when: string) => string;
  appliedTo: (n: number) => string;
  more: (n: number) => string;
  /** The error row: "2 lines of cases.jsonl cannot be read". */
  unreadable: (n: number) => string;
  line: (n: number, reason: string) => string;
  moreProblems: (n: number) => string;
  openToFix: string;
  /** The group's tooltip, from the metrics. */
  metrics: MetricWords;
}

export interface MetricWords {
  total: (n: number, byStatus: string) => string;
  byScope: (global: number, local: number, duplicates: number) => string;
  byImpact: (critical: number, high: number, medium: number, low: number) => string;
  rates: (validated: string, outdated: string) => string;
  injected: (global: number, local: number) => string;
  sources: (list: string) => string;
}

interface Icon {
  icon: string;
  color?: string;
}

const STATUS_ICONS: Readonly<Record<CaseStatus, Icon>> = {
  active: { icon: 'lightbulb', color: 'charts.yellow' },
  outdated: { icon: 'warning', color: 'list.warningForeground' },
  archived: { icon: 'archive', color: 'disabledForeground' },
  deleted: { icon: 'trash', color: 'disabledForeground' },
};
const VALIDATED_ICON: Icon = { icon: 'verified-filled', color: 'charts.green' };
const IMPACT_COLORS: Readonly<Partial<Record<CaseImpact, string>>> = { critical: 'charts.red', high: 'charts.orange' };

/** The icon of a case: its status's, or a green check for an active case a person validated. */
export function caseIcon(c: Pick<DiscoveryCase, 'status' | 'metadata'>): Icon {
  return c.status === 'active' && c.metadata.validated ? VALIDATED_ICON : STATUS_ICONS[c.status];
}

export function caseContext(c: Pick<DiscoveryCase, 'status' | 'metadata'>): string {
  return `groundwork.case.${c.status}.${c.metadata.scope}`;
}

/** The rows of every case and unreadable line; undefined when the file holds neither (the group is left out). */
export function casesListing(
  list: { cases: readonly DiscoveryCase[]; problems: readonly ReadProblem[] },
  metrics: DiscoveryMetrics,
  words: CaseWords,
  now: number,
  locale?: string,
): CasesListing | undefined {
  if (list.cases.length === 0 && list.problems.length === 0) return undefined;
  const rows: CasesRow[] = [];
  for (const status of STATUSES) {
    const cases = list.cases.filter((c) => c.status === status);
    if (cases.length > 0) rows.push(statusRow(status, cases, words, now, locale));
  }
  if (list.problems.length > 0) rows.push(problemRow(list.problems, words));
  const related = list.cases.map((c) => ({ id: c.id, task: c.metadata.sourceTaskId, parent: c.parentId }));
  let byId: Map<string, DiscoveryCase> | undefined;
  const rowsOf = (ids: readonly string[]): CasesRow[] => {
    byId ??= new Map(list.cases.map((c) => [c.id, c]));
    return ids.flatMap((id) => {
      const c = byId!.get(id);
      return c ? [caseRow(c, words, now, locale)] : [];
    });
  };
  return { rows, total: list.cases.length, tooltip: metricsTooltip(metrics, words), related, rowsOf };
}

function statusRow(
  status: CaseStatus,
  cases: readonly DiscoveryCase[],
  words: CaseWords,
  now: number,
  locale?: string,
): CasesRow {
  const children: CasesRow[] = [];
  for (const scope of SCOPES) {
    for (const impact of IMPACTS) {
      const inBucket = cases
        .filter((c) => c.metadata.scope === scope && c.metadata.impact === impact)
        .sort(newestFirst);
      if (inBucket.length === 0) continue;
      const label = `${words.scope[scope]} · ${words.impact[impact]}`;
      const rows: CasesRow[] = inBucket.slice(0, CASES_SHOWN).map((c) => caseRow(c, words, now, locale));
      if (inBucket.length > CASES_SHOWN) {
        const text = words.more(inBucket.length - CASES_SHOWN);
        rows.push({
          kind: 'note',
          treeId: `cases:${status}:${scope}:${impact}:more`,
          label: text,
          description: '',
          icon: 'info',
          tooltip: [text],
          ariaLabel: text,
        });
      }
      const color = IMPACT_COLORS[impact];
      children.push({
        kind: 'bucket',
        treeId: `cases:${status}:${scope}:${impact}`,
        label,
        description: String(inBucket.length),
        icon: scope === 'global' ? 'globe' : 'person',
        ...(color ? { color } : {}),
        tooltip: [`${words.status[status]} · ${label}: ${inBucket.length}`],
        ariaLabel: `${words.status[status]}, ${label}, ${inBucket.length}`,
        expanded: status === 'active',
        children: rows,
      });
    }
  }
  const { icon, color } = STATUS_ICONS[status];
  return {
    kind: 'status',
    treeId: `cases:${status}`,
    status,
    label: words.status[status],
    description: String(cases.length),
    icon,
    ...(color ? { color } : {}),
    tooltip: [`${words.status[status]}: ${cases.length}`],
    ariaLabel: `${words.status[status]}, ${cases.length}`,
    contextValue: 'groundwork.caseStatus',
    expanded: status === 'active',
    children,
  };
}

export function caseRow(c: DiscoveryCase, words: CaseWords, now: number, locale?: string): CasesRow {
  const m = c.metadata;
  const when = (iso: string) => runTime(iso, now, locale);
  const { icon, color } = caseIcon(c);
  const status = m.validated ? `${words.status[c.status]} · ${words.validated}` : words.status[c.status];
  const dates = [
    words.created(when(c.createdAt)),
    ...(c.updatedAt !== c.createdAt ? [words.updated(when(c.updatedAt))] : []),
    ...(c.validatedAt ? [words.validatedOn(when(c.validatedAt))] : []),
  ];
  const history: string[] = [];
  if (c.status === 'outdated' && m.outdatedAt !== undefined) {
    const why = m.outdatedReason !== undefined ? words.outdatedReason[m.outdatedReason] : '';
    history.push(
      [
        words.outdated(when(m.outdatedAt), why),
        ...(m.outdatedCommit !== undefined ? [words.commit(m.outdatedCommit.slice(0, 12))] : []),
      ].join(' · '),
    );
  }
  if (m.supersededBy !== null) history.push(words.supersededBy(m.supersededBy));
  if (c.status === 'archived' && m.archivedAt !== undefined)
    history.push(
      words.archived(when(m.archivedAt), m.archivedReason !== undefined ? words.archiveReason[m.archivedReason] : ''),
    );
  if (c.status === 'active' && m.resurrectedAt !== undefined) history.push(words.resurrected(when(m.resurrectedAt)));
  if (c.status === 'deleted' && m.deletedAt !== undefined) history.push(words.deleted(when(m.deletedAt)));
  const who = [
    ...(m.sourceTaskId !== null ? [words.task(oneLine(m.sourceTaskId, 120))] : []),
    m.sourceAgentId !== null ? words.agent(oneLine(m.sourceAgentId, 120)) : words.byPerson,
  ];
  const label = oneLine(c.content, LABEL_CHARS);
  return {
    kind: 'case',
    treeId: `case:${c.id}`,
    id: c.id,
    status: c.status,
    scope: m.scope,
    label,
    description: c.id,
    icon,
    ...(color ? { color } : {}),
    tooltip: [
      shownContent(c.content),
      `${c.id} · ${status}`,
      words.facts(words.impact[m.impact], m.category, words.scope[m.scope]),
      who.join(' · '),
      dates.join(' · '),
      ...history,
      ...(m.appliedTo.length > 0 ? [words.appliedTo(m.appliedTo.length)] : []),
    ],
    ariaLabel: `${label}, ${status}, ${words.scope[m.scope]}, ${words.impact[m.impact]}, ${c.id}`,
    contextValue: caseContext(c),
  };
}

function problemRow(problems: readonly ReadProblem[], words: CaseWords): CasesRow {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => words.line(p.line, oneLine(p.reason, 300)));
  const more = problems.length > PROBLEMS_SHOWN ? [words.moreProblems(problems.length - PROBLEMS_SHOWN)] : [];
  return errorRow(words.unreadable(problems.length), [...shown, ...more, words.openToFix], problems[0]!.line);
}

/** The Discoveries group's one error row (it opens cases.jsonl, at `line` when given). */
export function errorRow(label: string, tooltip: string[], line?: number): CasesRow {
  return {
    kind: 'problem',
    treeId: 'cases:problems',
    label,
    description: '',
    icon: 'error',
    color: 'errorForeground',
    tooltip,
    ariaLabel: label,
    contextValue: 'groundwork.casesProblem',
    ...(line !== undefined ? { line } : {}),
  };
}

/** The discovery metrics (docs/discovery-cases.md, "Metrics"), a paragraph each. */
export function metricsTooltip(m: DiscoveryMetrics, words: CaseWords): string[] {
  const w = words.metrics;
  const byStatus = STATUSES.filter((s) => m.byStatus[s] > 0)
    .map((s) => `${m.byStatus[s]} ${words.status[s].toLocaleLowerCase()}`)
    .join(', ');
  const percent = (rate: number) => `${Math.round(rate * 100)}%`;
  const sources = m.sourceTasks.slice(0, 3).map((t) => `${oneLine(t.taskId, 60)} (${t.cases})`);
  return [
    w.total(m.total, byStatus),
    w.byScope(m.byScope.global, m.byScope.local, m.duplicatesPrevented),
    w.byImpact(m.byImpact.critical, m.byImpact.high, m.byImpact.medium, m.byImpact.low),
    w.rates(percent(m.validationRate), percent(m.outdatedRate)),
    w.injected(m.injectedPerPrompt.global, m.injectedPerPrompt.local),
    ...(sources.length > 0 ? [w.sources(sources.join(', '))] : []),
  ];
}

function newestFirst(a: DiscoveryCase, b: DiscoveryCase): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : Number(b.id.slice(5)) - Number(a.id.slice(5));
}

/** The content as the tooltip shows it: its lines kept, each character visible, cut when long. */
function shownContent(content: string): string {
  const chars = [...content.trim()];
  const cut =
    chars.length > TOOLTIP_CONTENT_CHARS ? `${chars.slice(0, TOOLTIP_CONTENT_CHARS - 1).join('')}…` : content.trim();
  return cut
    .split(/\r\n|\r|\n/)
    .map((line) => visibleText(line.replace(/\t/g, '  ')))
    .join('\n');
}

/** One visible line of at most `max` characters (an ellipsis when cut). */
function oneLine(text: string, max: number): string {
  const chars = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
