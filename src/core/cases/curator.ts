// The curator (docs/discovery-cases.md, "The curator"): every report of a discovery — a
// report_discovery call, an `<axiom>DISCOVERY_…</axiom>` signal in an agent's text, a person's "Add
// Discovery" — goes through one queue, in order, so that two reports of the same learning cannot
// both pass the duplicate check (reports that wait together are stored in one step under the
// store's lock). Duplicates are found by SHA-256 of the normalised content among every case in the
// store (so the check survives a restart, and holds against another window, under the store's
// lock); a new case gets the impact the report gave or the heuristic's, and a category.
import { extractSignals } from '../run/signals';
import type { Signal } from '../run/signals';
import { draftProblem } from './caseDraft';
import type { CaseDraft } from './caseDraft';
import type { CaseCategory, CaseImpact, CaseScope, DiscoveryCase } from './caseRecord';
import { CaseInputError } from './caseStore';
import type { AddResult, CaseStore } from './caseStore';
import { classifyCategory, classifyImpact } from './classify';

/** One report of a discovery, from an agent or a person. */
export interface DiscoveryReport {
  scope: CaseScope;
  content: string;
  /** As the reporter rated it; the heuristic's guess when absent. */
  impact?: CaseImpact;
  category?: CaseCategory;
  /** The task (build phase, agent run) it was learned in: the case's parent. */
  taskId?: string;
  /** The agent (its role) that reported it; local cases are injected back to it. */
  agentId?: string;
}

/** Who reported the signals of a text. */
export interface ReportContext {
  taskId?: string;
  agentId?: string;
}

export type CurateResult =
  | {
      kind: 'created';
      case: DiscoveryCase;
      /** The older cases the new one contradicted, now outdated and superseded by it. */
      superseded?: readonly string[];
      hookError?: string;
    }
  | {
      kind: 'duplicate';
      /** The case already holding this content (of any status). */
      id: string;
      case: DiscoveryCase;
    };

export interface CuratorDeps {
  store: CaseStore;
  /**
   * Runs after each new case, in queue order (the journal, the views, a contradiction check). The
   * case is stored whatever it does; a failure is returned with the result, not thrown.
   */
  onCreated?: (created: DiscoveryCase) => Promise<CreatedFollowUp | void>;
}

/** What followed a new case, for the one who reported it. */
export interface CreatedFollowUp {
  /** The ids of the older cases it superseded. */
  superseded: readonly string[];
}

interface Pending {
  report: DiscoveryReport;
  resolve: (result: CurateResult) => void;
  reject: (err: unknown) => void;
}

/** The most reports stored under one lock. */
const BATCH_MAX = 500;

export class Curator {
  private readonly pending: Pending[] = [];
  /** The drain under way; cleared by the drain itself the moment it finds the queue empty. */
  private draining: Promise<void> | undefined;

  constructor(private readonly deps: CuratorDeps) {}

  /**
   * Queues one report; resolves when it is stored (or found a duplicate), after the hook. Rejects
   * with the store's CaseInputError for a report it cannot take (empty content, a bad scope…) or a
   * storage error; either way the next report in the queue goes on. Reports that wait together
   * are stored together, in their order, under one lock.
   */
  submit(report: DiscoveryReport): Promise<CurateResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ report, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Queues each signal, with who reported it. */
  submitSignals(signals: readonly Signal[], context: ReportContext = {}): Promise<CurateResult[]> {
    return Promise.all(signals.map((s) => this.submit({ scope: s.scope, content: s.content, ...context })));
  }

  /** Queues the signals in an agent's whole text (streamed text goes through core/run/signals.ts' SignalFilter). */
  submitText(text: string, context: ReportContext = {}): Promise<CurateResult[]> {
    return this.submitSignals(extractSignals(text).signals, context);
  }

  /** Resolves when every report queued so far is done. */
  async idle(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  private async drain(): Promise<void> {
    // Let the reports of one burst (the signals of one text) gather before the first is stored.
    await Promise.resolve();
    for (;;) {
      if (this.pending.length === 0) {
        // In the same step as the check: a report queued after it starts a drain of its own.
        this.draining = undefined;
        return;
      }
      const batch = this.pending.splice(0, BATCH_MAX);
      const valid: { item: Pending; draft: CaseDraft }[] = [];
      for (const item of batch) {
        const draft = draftOf(item.report);
        const problem = draftProblem(draft);
        if (problem === undefined) valid.push({ item, draft });
        else item.reject(new CaseInputError(`The discovery was not added: ${problem}.`));
      }
      let results: AddResult[];
      try {
        results = await this.deps.store.addMany(
          valid.map((v) => v.draft),
          { dedup: true },
        );
      } catch (err) {
        for (const { item } of valid) item.reject(err);
        continue;
      }
      for (const [i, { item }] of valid.entries()) item.resolve(await this.after(results[i]!));
    }
  }

  private async after(result: AddResult): Promise<CurateResult> {
    if (result.duplicate) return { kind: 'duplicate', id: result.case.id, case: result.case };
    if (this.deps.onCreated === undefined) return { kind: 'created', case: result.case };
    try {
      const followUp = await this.deps.onCreated(result.case);
      const superseded = followUp?.superseded ?? [];
      return { kind: 'created', case: result.case, ...(superseded.length > 0 ? { superseded } : {}) };
    } catch (err) {
      return { kind: 'created', case: result.case, hookError: err instanceof Error ? err.message : String(err) };
    }
  }
}

/** The case a report makes: its impact and category as given, else the heuristics' (classify.ts). */
function draftOf(report: DiscoveryReport): CaseDraft {
  // Checked by draftProblem (a CaseInputError names what is wrong); only text is classified.
  const content = typeof report.content === 'string' ? report.content.trim() : report.content;
  const text = typeof content === 'string' ? content : '';
  return {
    content,
    scope: report.scope,
    impact: report.impact ?? classifyImpact(text),
    category: report.category ?? classifyCategory(text),
    ...(report.taskId !== undefined ? { sourceTaskId: report.taskId } : {}),
    ...(report.agentId !== undefined ? { sourceAgentId: report.agentId } : {}),
  };
}
