// Finding the cases that no longer hold (docs/discovery-cases.md, "Outdated detection"): a file a
// case speaks of was changed by a commit since the case was made or last validated (asked of git
// through a port, so the core runs no process), or a newer case says otherwise. Both only read
// outside the store's lock; the marks are written under it, and only to cases nobody changed
// meanwhile. When to check (on creation, on a command, after commits, every few minutes) is the
// front end's business.
import { applyCaseAction } from './caseActions';
import { believableTime } from './caseRecord';
import type { DiscoveryCase } from './caseRecord';
import type { CaseStore } from './caseStore';
import { caseFeatures, contradicts } from './contradiction';
import type { CaseFeatures } from './contradiction';
import { extractFilePaths, pathMatches } from './filePaths';

export interface GitCommit {
  /** The full hash. */
  hash: string;
  /** Committer date, ISO-8601. */
  date: string;
  subject: string;
  /** The files it changed, relative to the workspace folder. */
  files: string[];
}

export type GitLogResult = { ok: true; commits: GitCommit[] } | { ok: false; reason: string };

/** `git log` as the staleness check needs it (core/node/gitLogRunner.ts runs the real one). */
export interface GitLogPort {
  /**
   * The commits since `since` (ISO-8601) that changed any of `paths` (relative to the workspace
   * folder; a bare file name matches it in any folder, a path ending in '/' everything under it),
   * newest first. `{ ok: false, reason }` when git cannot answer (not installed, not a repository):
   * the reason is a sentence for the person.
   */
  commitsTouching(paths: readonly string[], since: string): Promise<GitLogResult>;
}

export interface OutdatedFinding {
  id: string;
  /** The first commit since the case that changed one of its files. */
  commit: string;
  /** The case's files that commit changed. */
  files: string[];
}

export interface FileCheck {
  /** Cases marked outdated now, each with the commit that did it. */
  findings: OutdatedFinding[];
  /** Why the check did not run (git is missing, the folder is not a repository), to show once. */
  skipped?: string;
}

const HASH = /^[0-9a-f]{7,64}$/;

/** The active cases whose files changed since they were made or validated: marked outdated, naming the commit. */
export async function checkFileStaleness(store: CaseStore, git: GitLogPort): Promise<FileCheck> {
  const { cases } = await store.load();
  const nowMs = Date.parse(store.nowIso());
  const findings: OutdatedFinding[] = [];
  const seen = new Map<string, string>();
  for (const c of cases) {
    if (c.status !== 'active') continue;
    const paths = extractFilePaths(c.content);
    if (paths.length === 0) continue;
    const since = reviewedAt(c, nowMs);
    const log = await git.commitsTouching(paths, since);
    if (!log.ok) return { findings: await markFiles(store, findings, seen), skipped: log.reason };
    // Newest first: the last one that touches a file is the change that first made it stale.
    const touching = log.commits.filter(
      (k) => HASH.test(k.hash) && !isBefore(k.date, since) && k.files.some((f) => paths.some((p) => pathMatches(f, p))),
    );
    const first = touching[touching.length - 1];
    if (first === undefined) continue;
    seen.set(c.id, JSON.stringify(c));
    findings.push({
      id: c.id,
      commit: first.hash,
      files: paths.filter((p) => first.files.some((f) => pathMatches(f, p))),
    });
  }
  return { findings: await markFiles(store, findings, seen) };
}

/**
 * When a person last stood by the case: its creation, validation (an edit of an outdated case is
 * one) or resurrection. Changes before it were seen; only those since can make it stale again.
 */
export function reviewedAt(c: DiscoveryCase, nowMs: number): string {
  // By believableTime: a time a little ahead is now; one far ahead (a hand-made line) is none, or
  // no commit would ever be "since" it and the case would never go stale.
  let best = -Infinity;
  for (const t of [c.createdAt, c.validatedAt, c.metadata.resurrectedAt])
    if (t != null) best = Math.max(best, believableTime(t, nowMs));
  return new Date(Number.isFinite(best) ? best : 0).toISOString();
}

/** A commit older than the case (git's --since is by the second, and clocks differ): not a change since. */
function isBefore(date: string, since: string): boolean {
  const at = Date.parse(date);
  return Number.isFinite(at) && at < Math.floor(Date.parse(since) / 1000) * 1000;
}

async function markFiles(
  store: CaseStore,
  findings: OutdatedFinding[],
  seen: ReadonlyMap<string, string>,
): Promise<OutdatedFinding[]> {
  if (findings.length === 0) return [];
  const byId = new Map(findings.map((f) => [f.id, f]));
  const written = await store.updateMany((cases, now) =>
    cases.flatMap((c) => {
      const f = byId.get(c.id);
      // Changed since it was read (validated, edited, marked): this check's finding is stale itself.
      if (f === undefined || c.status !== 'active' || JSON.stringify(c) !== seen.get(c.id)) return [];
      return [applyCaseAction(c, { kind: 'outdated', reason: 'affected files modified', commit: f.commit }, now)];
    }),
  );
  return written.map((c) => byId.get(c.id)!);
}

export interface Supersession {
  id: string;
  supersededBy: string;
}

/**
 * Whether `newer` may supersede `older`: both active, `newer` made later (and after anyone last
 * stood by `older`), and about the same audience — two global cases, or two local ones of the same agent (one agent's local note does
 * not overrule what the whole project holds, nor another agent's).
 */
function mayFollow(older: DiscoveryCase, newer: DiscoveryCase, nowMs: number): boolean {
  if (older.id === newer.id || older.status !== 'active' || newer.status !== 'active') return false;
  if (older.metadata.scope !== newer.metadata.scope) return false;
  if (older.metadata.scope === 'local' && older.metadata.sourceAgentId !== newer.metadata.sourceAgentId) return false;
  // A person who validated (or resurrected) the older one after the newer was made has seen both.
  if (Date.parse(reviewedAt(older, nowMs)) > believableTime(newer.createdAt, nowMs)) return false;
  return order(nowMs)(older, newer) < 0;
}

/** Older first, by believableTime: a case dated far ahead is no newer than any (it supersedes none). */
function order(nowMs: number): (a: DiscoveryCase, b: DiscoveryCase) => number {
  return (a, b) => {
    const [at, bt] = [believableTime(a.createdAt, nowMs), believableTime(b.createdAt, nowMs)];
    return at < bt ? -1 : at > bt ? 1 : Number(a.id.slice(5)) - Number(b.id.slice(5));
  };
}

/**
 * The contradiction check (docs/discovery-cases.md): each active case that a newer one contradicts
 * is marked outdated, superseded by the newest such case. With `newer` (a case just created) only
 * the cases before it are compared with it; without, every pair of active cases (the periodic
 * check).
 */
export async function checkContradictions(store: CaseStore, newer?: DiscoveryCase): Promise<Supersession[]> {
  const { cases } = await store.load();
  const nowMs = Date.parse(store.nowIso());
  const active = cases.filter((c) => c.status === 'active').sort(order(nowMs));
  const features = new Map<string, CaseFeatures>();
  const of = (c: DiscoveryCase) => features.get(c.id) ?? features.set(c.id, caseFeatures(c.content)).get(c.id)!;
  const found = new Map<string, { by: string; seen: string }>();
  const candidates = newer === undefined ? active : active.filter((c) => mayFollow(c, newer, nowMs));
  for (const older of candidates) {
    const later = newer === undefined ? active.filter((c) => mayFollow(older, c, nowMs)) : [newer];
    for (let i = later.length - 1; i >= 0; i--) {
      if (!contradicts(of(older), of(later[i]!))) continue;
      found.set(older.id, { by: later[i]!.id, seen: JSON.stringify(older) });
      break;
    }
  }
  if (found.size === 0) return [];
  const written = await store.updateMany((all, now) =>
    all.flatMap((c) => {
      const f = found.get(c.id);
      if (f === undefined || c.status !== 'active' || JSON.stringify(c) !== f.seen) return [];
      return [applyCaseAction(c, { kind: 'supersede', by: f.by }, now)];
    }),
  );
  return written.map((c) => ({ id: c.id, supersededBy: c.metadata.supersededBy! }));
}
