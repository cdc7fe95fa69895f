// The discovery metrics (docs/discovery-cases.md, "Metrics"), computed from the cases alone, plus
// the duplicates counter the curator keeps in counters.json: for `groundwork cases metrics --json`
// and the Discoveries group's tooltip.
import { CASE_IMPACTS, CASE_SCOPES, CASE_STATUSES } from './caseRecord';
import type { CaseImpact, CaseScope, CaseStatus, DiscoveryCase } from './caseRecord';
import { INJECTION_DEFAULTS } from './injection';
import type { InjectionOptions } from './injection';

export interface DiscoveryMetrics {
  /** Total discovery cases. */
  total: number;
  /** Active vs outdated vs archived vs deleted. */
  byStatus: Record<CaseStatus, number>;
  /** Local vs global. */
  byScope: Record<CaseScope, number>;
  /** Reports found to be duplicates (dedup hash collisions). */
  duplicatesPrevented: number;
  /** The tasks that produced cases, most cases first. */
  sourceTasks: { taskId: string; cases: number }[];
  /**
   * Cases a prompt carries now: every prompt's global ones, and on average the local ones of an
   * agent that has any (within the injection block's count caps; its byte cap may carry fewer).
   */
  injectedPerPrompt: { global: number; local: number };
  /** Low / medium / high / critical counts. */
  byImpact: Record<CaseImpact, number>;
  /** Share of cases validated (0 to 1). */
  validationRate: number;
  /** Share of cases outdated (0 to 1). */
  outdatedRate: number;
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);
const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export function discoveryMetrics(
  cases: readonly DiscoveryCase[],
  options: { duplicatesPrevented?: number; injection?: InjectionOptions } = {},
): DiscoveryMetrics {
  const byStatus = zeros(CASE_STATUSES);
  const byScope = zeros(CASE_SCOPES);
  const byImpact = zeros(CASE_IMPACTS);
  const tasks = new Map<string, number>();
  const localByAgent = new Map<string, number>();
  let activeGlobal = 0;
  let validated = 0;
  for (const c of cases) {
    byStatus[c.status]++;
    byScope[c.metadata.scope]++;
    byImpact[c.metadata.impact]++;
    if (c.metadata.validated) validated++;
    if (c.metadata.sourceTaskId !== null)
      tasks.set(c.metadata.sourceTaskId, (tasks.get(c.metadata.sourceTaskId) ?? 0) + 1);
    if (c.status !== 'active') continue;
    if (c.metadata.scope === 'global') activeGlobal++;
    else if (c.metadata.sourceAgentId !== null)
      localByAgent.set(c.metadata.sourceAgentId, (localByAgent.get(c.metadata.sourceAgentId) ?? 0) + 1);
  }
  const caps = { ...INJECTION_DEFAULTS, ...options.injection };
  let local = 0;
  for (const n of localByAgent.values()) local += Math.min(n, caps.maxLocal);
  return {
    total: cases.length,
    byStatus,
    byScope,
    duplicatesPrevented: options.duplicatesPrevented ?? 0,
    sourceTasks: [...tasks]
      .map(([taskId, n]) => ({ taskId, cases: n }))
      .sort((a, b) => b.cases - a.cases || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0)),
    injectedPerPrompt: {
      global: Math.min(activeGlobal, caps.maxGlobal),
      local: localByAgent.size === 0 ? 0 : Math.round((local / localByAgent.size) * 10) / 10,
    },
    byImpact,
    validationRate: rate(validated, cases.length),
    outdatedRate: rate(byStatus.outdated, cases.length),
  };
}
