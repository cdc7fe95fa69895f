// What the plan explorer's model (explorerTree.ts) is made from, read from a workspace's
// `.groundwork/`: each plan folder's names (and its rounds), and the sessions waiting for the
// person — the discovery round files and the unfinished brainstorms. A file that cannot be read is
// a FileProblem (an error node), never a failed read of the rest: every file here may come from a
// cloned repository.
import { parseSession, SESSION_FILE_MAX_BYTES } from '../brainstorm/sessionFile';
import { MAX_ROUNDS } from '../discovery/discoveryTypes';
import { parseRoundFile, ROUND_FILE_MAX_BYTES, roundFileRel, sessionNameProblem } from '../discovery/roundFile';
import { DISCOVERY_DIR, PLAN_FILES, PLANS_DIR, planFile } from '../plan/layout';
import { isSlug } from '../storage/safeNames';
import { displayPath, type WorkspaceStore } from '../storage/workspaceStore';
import { visibleText } from '../visibleText';
import type { FileProblem, PlanFacts, SessionFacts } from './explorerTree';

/** The panel's session's file (vscode/discoveryController.ts's PANEL_SESSION). */
const PANEL_FILE = 'panel.md';
/** More discovery sessions than anyone waits on: the rest are named in one problem. */
export const SESSIONS_READ_MAX = 100;
/** Plan folders read at once. */
const READ_AT_ONCE = 8;

export interface ExplorerRead {
  plans: PlanFacts[];
  sessions: SessionFacts[];
  problems: FileProblem[];
}

function reason(err: unknown): string {
  return visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim()).slice(0, 300);
}

/** One plan folder's facts; undefined when it is not a plan folder (gone, not a folder, not a slug). */
export async function readPlanFacts(store: WorkspaceStore, slug: string): Promise<PlanFacts | undefined> {
  if (!isSlug(slug)) return undefined;
  const info = await store.info(planFile(slug)).catch(() => undefined);
  if (info?.kind !== 'directory') return undefined;
  const files = await store.list(planFile(slug)).catch(() => undefined);
  // Gone between the check and the listing (which reads a missing folder as empty): no plan.
  if (
    files === undefined ||
    (files.length === 0 && (await store.info(planFile(slug)).catch(() => undefined))?.kind !== 'directory')
  )
    return undefined;
  const rounds = files.includes(PLAN_FILES.roundsDir)
    ? await store.list(planFile(slug, PLAN_FILES.roundsDir)).catch(() => [])
    : [];
  return { slug, files, rounds };
}

/** Every plan folder, by slug. A folder whose name is no slug is left out, as Groundwork never makes one. */
export async function readPlans(store: WorkspaceStore): Promise<PlanFacts[]> {
  const names = (await store.list(PLANS_DIR)).filter(isSlug).sort();
  const read: (PlanFacts | undefined)[] = new Array(names.length);
  // A few folders at a time: the disk's latency overlaps, and the order stays the slugs'.
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < names.length; i = next++) read[i] = await readPlanFacts(store, names[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(READ_AT_ONCE, names.length) }, worker));
  return read.filter((p): p is PlanFacts => p !== undefined);
}

/** The discovery sessions of `discovery/*.md`, and a problem for each file that is not one. */
export async function readDiscoverySessions(
  store: WorkspaceStore,
  ttlMs: number,
): Promise<{ sessions: SessionFacts[]; problems: FileProblem[] }> {
  // The panel's own session first: files planted beside it cannot push it out of the ones read.
  const names = (await store.list(DISCOVERY_DIR))
    .filter((n) => n.endsWith('.md'))
    .sort((a, b) => Number(b === PANEL_FILE) - Number(a === PANEL_FILE) || (a < b ? -1 : a > b ? 1 : 0));
  const sessions: SessionFacts[] = [];
  const problems: FileProblem[] = [];
  for (const name of names.slice(0, SESSIONS_READ_MAX)) {
    const file = `${DISCOVERY_DIR}/${name}`;
    try {
      const text = await store.readText(file, ROUND_FILE_MAX_BYTES);
      if (text === undefined) continue;
      const parsed = parseRoundFile(text);
      if (!parsed.ok) {
        problems.push({ file: displayPath(file), problem: parsed.reason });
        continue;
      }
      const { data } = parsed;
      // A file is the session its name says (a hashed name records itself): none may pose as another.
      const session = data.session ?? name.slice(0, -'.md'.length);
      const wrong =
        sessionNameProblem(session) ??
        (roundFileRel(session) !== file
          ? `it names the session "${visibleText(session).slice(0, 100)}", whose file is another`
          : undefined);
      if (wrong !== undefined) {
        problems.push({ file: displayPath(file), problem: wrong });
        continue;
      }
      sessions.push({
        kind: 'discovery',
        session,
        file,
        request: data.originalRequest,
        round: Math.min(data.round, MAX_ROUNDS),
        maxRounds: MAX_ROUNDS,
        createdMs: data.createdSec * 1000,
        ttlMs,
      });
    } catch (err) {
      problems.push({ file: displayPath(file), problem: reason(err) });
    }
  }
  if (names.length > SESSIONS_READ_MAX)
    problems.push({
      file: displayPath(DISCOVERY_DIR),
      problem: `${names.length - SESSIONS_READ_MAX} more session files are not shown`,
    });
  return { sessions, problems };
}

/** The brainstorm under way in a plan folder (its session file, no sentinel yet), or why it cannot be read. */
export async function readBrainstormSession(store: WorkspaceStore, slug: string): Promise<SessionFacts | FileProblem> {
  const file = planFile(slug, PLAN_FILES.state);
  try {
    const text = await store.readText(file, SESSION_FILE_MAX_BYTES);
    if (text === undefined) return { file: displayPath(file), problem: 'it is gone' };
    const session = parseSession(text, displayPath(file));
    if (session.slug !== slug)
      return { file: displayPath(file), problem: `it belongs to the plan "${visibleText(session.slug)}"` };
    const round = session.rounds.at(-1)?.round ?? 0;
    return {
      kind: 'brainstorm',
      slug,
      file,
      topic: session.topic,
      round,
      maxRounds: session.maxRounds,
      createdMs: session.createdAt,
    };
  } catch (err) {
    return { file: displayPath(file), problem: reason(err) };
  }
}

/** The sessions waiting for the person: the discovery round files, and the brainstorms under way in these plans. */
export async function readSessions(
  store: WorkspaceStore,
  brainstorming: readonly string[],
  ttlMs: number,
): Promise<{ sessions: SessionFacts[]; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  const discovery = await readDiscoverySessions(store, ttlMs).catch((err: unknown) => {
    problems.push({ file: displayPath(DISCOVERY_DIR), problem: reason(err) });
    return { sessions: [], problems: [] };
  });
  const sessions = [...discovery.sessions];
  problems.push(...discovery.problems);
  for (const slug of brainstorming) {
    const read = await readBrainstormSession(store, slug);
    if ('kind' in read) sessions.push(read);
    else problems.push(read);
  }
  return { sessions, problems };
}

/** The plans, the sessions waiting for the person, and the files that could not be read. */
export async function readExplorer(store: WorkspaceStore, ttlMs: number): Promise<ExplorerRead> {
  const problems: FileProblem[] = [];
  const plans = await readPlans(store).catch((err: unknown) => {
    problems.push({ file: displayPath(PLANS_DIR), problem: reason(err) });
    return [];
  });
  const read = await readSessions(
    store,
    plans
      .filter((p) => p.files.includes(PLAN_FILES.state) && !p.files.includes(PLAN_FILES.sentinel))
      .map((p) => p.slug),
    ttlMs,
  );
  problems.push(...read.problems);
  const sessions = read.sessions;
  return { plans, sessions, problems };
}
