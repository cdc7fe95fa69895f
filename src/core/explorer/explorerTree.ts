// The plan explorer's model, pure: what a plan expands to (its documents, the builds made from it,
// the discovery cases those builds reported), the sessions waiting for the person (discovery and
// brainstorm, with round n/N and the time left before the TTL), and the specs of other tools the
// workspace holds. The facts come from explorerReader.ts (or a test); the VS Code explorer draws the
// nodes (vscode/planExplorer.ts) with the rows of the builds and cases features.
//
// One object per plan: `updatePlan` replaces only the plan whose folder changed, so a refresh after
// one file costs one plan, not the workspace (npm run bench:tree).
import { isSlug } from '../storage/safeNames';
import { DISCOVERY_DIR, PLAN_FILES, planFile, planStateOf, roundFileName } from '../plan/layout';
import { displayPath } from '../storage/workspaceStore';

export interface PlanFacts {
  slug: string;
  /** The names in the plan folder. */
  files: readonly string[];
  /** The names in its `rounds/` folder (empty without one). */
  rounds: readonly string[];
}

export interface BuildFacts {
  id: string;
  /** The plan it was made from. */
  plan?: string;
}

export interface CaseFacts {
  id: string;
  /** The task it was learned in: a build's id for the cases a build's agents reported. */
  task: string | null;
  parent: string | null;
}

/** A session waiting for the person's answers. `file` is relative to `.groundwork/`. */
export type SessionFacts =
  | {
      kind: 'discovery';
      session: string;
      file: string;
      request: string;
      round: number;
      maxRounds: number;
      createdMs: number;
      ttlMs: number;
    }
  | {
      kind: 'brainstorm';
      slug: string;
      file: string;
      topic: string;
      round: number;
      maxRounds: number;
      createdMs: number;
    };

/** A file Groundwork could not read: an error node that says why and offers to open it. */
export interface FileProblem {
  /** Relative to the workspace folder (`.groundwork/discovery/x.md`). */
  file: string;
  problem: string;
}

/** Whether a problem is about a session's file (shown under Active sessions) rather than a plan's. */
export function isSessionProblem(problem: FileProblem): boolean {
  const discovery = displayPath(DISCOVERY_DIR);
  return (
    problem.file === discovery ||
    problem.file.startsWith(`${discovery}/`) ||
    problem.file.endsWith(`/${PLAN_FILES.state}`)
  );
}

export type DocumentKind = 'ideaBrief' | 'brainstorm' | 'context' | 'seededFrom' | 'brainstorms' | 'round';

export interface DocumentNode {
  kind: DocumentKind;
  /** Relative to `.groundwork/`. */
  file: string;
  /** The round's number, for a round. */
  round?: number;
}

export interface PlanNode {
  slug: string;
  complete: boolean;
  unfinishedBrainstorm: boolean;
  /** The file a click opens (the brainstorm's document, else the Idea Brief), relative to `.groundwork/`. */
  mainFile?: string;
  documents: readonly DocumentNode[];
  /** The ids of the builds made from it, as the facts list them (newest first). */
  builds: readonly string[];
  /** The ids of the cases those builds reported. */
  cases: readonly string[];
}

export interface SessionNode {
  facts: SessionFacts;
  /** When the TTL ends (discovery only). */
  expiresAt?: number;
  /** Past its TTL: it can no longer be answered, only started again. */
  expired: boolean;
}

const DOCUMENTS: readonly (readonly [DocumentKind, string])[] = [
  ['ideaBrief', PLAN_FILES.ideaBrief],
  ['brainstorm', PLAN_FILES.document],
  ['context', PLAN_FILES.context],
  ['seededFrom', PLAN_FILES.seededFrom],
  ['brainstorms', PLAN_FILES.brainstorms],
];
const ROUND_FILE = /^round-([1-9]\d{0,2})\.md$/;
/** A session made further ahead of the clock than this is taken for expired (as core/cases' believableTime does). */
const CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;

/** A plan's documents, in the order a person reads them: the brief, the result, its context, the rounds by number. */
export function planDocuments(facts: PlanFacts): DocumentNode[] {
  const names = new Set(facts.files);
  const documents: DocumentNode[] = DOCUMENTS.filter(([, name]) => names.has(name)).map(([kind, name]) => ({
    kind,
    file: planFile(facts.slug, name),
  }));
  if (!names.has(PLAN_FILES.roundsDir)) return documents;
  const rounds = facts.rounds
    .map((name) => ROUND_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  for (const round of rounds)
    documents.push({
      kind: 'round',
      round,
      file: planFile(facts.slug, `${PLAN_FILES.roundsDir}/${roundFileName(round)}`),
    });
  return documents;
}

export class ExplorerTree {
  private readonly plans = new Map<string, PlanNode>();
  private order: string[] = [];
  private buildsByPlan = new Map<string, string[]>();
  private casesByTask = new Map<string, string[]>();
  private sessionList: readonly SessionFacts[] = [];

  constructor(facts: {
    plans: readonly PlanFacts[];
    builds?: readonly BuildFacts[];
    cases?: readonly CaseFacts[];
    sessions?: readonly SessionFacts[];
  }) {
    this.index(facts.builds ?? [], facts.cases ?? []);
    for (const plan of facts.plans) this.put(plan);
    this.order = [...this.plans.keys()].sort();
    this.sessionList = facts.sessions ?? [];
  }

  /** The plans, by slug. */
  planNodes(): PlanNode[] {
    return this.order.map((slug) => this.plans.get(slug)!);
  }

  plan(slug: string): PlanNode | undefined {
    return this.plans.get(slug);
  }

  /**
   * One plan folder changed: its node is made again from its facts (undefined when the folder is
   * gone). Returns the new node, or undefined when the plan is gone or was never one.
   */
  updatePlan(slug: string, facts: PlanFacts | undefined): PlanNode | undefined {
    const had = this.plans.has(slug);
    if (facts === undefined || facts.slug !== slug || !isSlug(slug)) {
      if (had) {
        this.plans.delete(slug);
        this.order = this.order.filter((s) => s !== slug);
      }
      return undefined;
    }
    const node = this.put(facts);
    if (!had) this.order = [...this.order, slug].sort();
    return node;
  }

  /** The builds or the cases changed: each plan's lists are looked up again (the documents stay). */
  setBuildsAndCases(builds: readonly BuildFacts[], cases: readonly CaseFacts[]): void {
    this.index(builds, cases);
    for (const [slug, node] of this.plans) this.plans.set(slug, { ...node, ...this.related(slug) });
  }

  setSessions(sessions: readonly SessionFacts[]): void {
    this.sessionList = sessions;
  }

  /** The sessions waiting for the person, oldest first, each with its time left at `now`. */
  sessions(now: number): SessionNode[] {
    return [...this.sessionList]
      .sort((a, b) => a.createdMs - b.createdMs)
      .map((facts) => {
        if (facts.kind !== 'discovery') return { facts, expired: false };
        const expiresAt = facts.createdMs + facts.ttlMs;
        // Made more than a day ahead of the clock is no real time (a planted file): it never waits forever.
        return { facts, expiresAt, expired: now > expiresAt || facts.createdMs - now > CLOCK_AHEAD_MS };
      });
  }

  /** What the view's badge counts: the sessions that can still be answered. */
  waiting(now: number): number {
    return this.sessions(now).filter((s) => !s.expired).length;
  }

  private put(facts: PlanFacts): PlanNode | undefined {
    if (!isSlug(facts.slug)) return undefined;
    const state = planStateOf(facts.files);
    const documents = planDocuments(facts);
    const main = documents.find((d) => d.kind === 'brainstorm') ?? documents.find((d) => d.kind === 'ideaBrief');
    const node: PlanNode = {
      slug: facts.slug,
      ...state,
      ...(main ? { mainFile: main.file } : {}),
      documents,
      ...this.related(facts.slug),
    };
    this.plans.set(facts.slug, node);
    return node;
  }

  private related(slug: string): { builds: readonly string[]; cases: readonly string[] } {
    const builds = this.buildsByPlan.get(slug) ?? [];
    const cases = builds.length === 0 ? [] : [...new Set(builds.flatMap((id) => this.casesByTask.get(id) ?? []))];
    return { builds, cases };
  }

  private index(builds: readonly BuildFacts[], cases: readonly CaseFacts[]): void {
    this.buildsByPlan = new Map();
    for (const build of builds) {
      if (build.plan === undefined) continue;
      const list = this.buildsByPlan.get(build.plan);
      if (list) list.push(build.id);
      else this.buildsByPlan.set(build.plan, [build.id]);
    }
    this.casesByTask = new Map();
    for (const c of cases) {
      // A case names its build as its task; one a person added under a task of a build names it as its parent.
      const tasks = c.task === c.parent || c.parent === null ? [c.task] : [c.task, c.parent];
      for (const task of tasks) {
        if (task === null) continue;
        const list = this.casesByTask.get(task);
        if (list) list.push(c.id);
        else this.casesByTask.set(task, [c.id]);
      }
    }
  }
}
