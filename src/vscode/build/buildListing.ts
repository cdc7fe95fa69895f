// The Builds group's data, read from `.groundwork/builds/` (and each try's run folder) with the
// words of the person's language: the build feature's bundle gives it to the explorer through
// Host.services.builds. The rows themselves are composed in buildRows.ts (pure).
import * as vscode from 'vscode';
import { BuildStore, buildDisplayStatus } from '../../core/build/buildStore';
import type { BuildRecord } from '../../core/build/buildTypes';
import { RunStore, displayStatus } from '../../core/run/runStore';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';
import {
  attemptNote,
  attemptRunRow,
  buildsListing,
  type AttemptNode,
  type BuildShownStatus,
  type BuildWords,
  type BuildsListing,
} from './buildRows';
import { runRow } from '../agentRun/runRows';
import { runWords } from '../agentRun/runWords';

/** Every build, newest first, with the status a person should see ('interrupted' when nobody holds a running one). `live` is this window's build. */
export async function readBuilds(store: WorkspaceStore, live: BuildRecord | undefined): Promise<BuildsListing> {
  const builds = new BuildStore(store);
  const { builds: all, problems } = await builds.list();
  const rows = await Promise.all(
    all.map(async (build) => {
      const here = live?.id === build.id;
      if (here) return { build: live, status: 'running' as BuildShownStatus, here };
      if (build.status !== 'running') return { build, status: build.status as BuildShownStatus, here };
      return { build, status: buildDisplayStatus(build, await builds.isHeld(build.id).catch(() => true)), here };
    }),
  );
  return buildsListing(rows, problems, buildWords(), Date.now(), vscode.env.language);
}

/** The newest build and how it shows, or undefined when there is none (or it cannot be read). */
export async function readNewest(
  store: WorkspaceStore,
): Promise<{ build: BuildRecord; status: BuildShownStatus } | undefined> {
  const builds = new BuildStore(store);
  const { builds: all } = await builds.list();
  const build = all[0];
  if (build === undefined) return undefined;
  const held = build.status === 'running' ? await builds.isHeld(build.id).catch(() => true) : false;
  return { build, status: buildDisplayStatus(build, held) };
}

/** The tries of one phase: each one's agent run (a run row, its files beneath), or why it has none. */
export async function readAttempts(
  store: WorkspaceStore,
  buildId: string,
  phaseName: string,
  liveRun: (runId: string) => boolean,
): Promise<AttemptNode[]> {
  const read = await new BuildStore(store).read(buildId);
  if (!read.ok) throw new Error(read.problem);
  const phase = read.build.phases.find((p) => p.name === phaseName);
  if (!phase) return [];
  const runs = new RunStore(store);
  const words = buildWords();
  const now = Date.now();
  return Promise.all(
    phase.attempts.map(async (attempt, i): Promise<AttemptNode> => {
      if (attempt.runId === undefined) return attemptNote(attempt, i + 1, words);
      const found = await runs.read(attempt.runId);
      if (!found.ok)
        return {
          kind: 'note',
          text: visibleText(found.problem.replace(/\s+/g, ' ')).slice(0, 200),
          tooltip: visibleText(found.problem),
        };
      const here = liveRun(found.run.id);
      const status =
        found.run.status === 'running' && !here
          ? displayStatus(found.run, await runs.isHeld(found.run.id).catch(() => true))
          : found.run.status;
      const base = runRow(found.run, status, here, runWords(), now, vscode.env.language);
      return { kind: 'run', row: attemptRunRow(base, attempt, i + 1, words) };
    }),
  );
}

export function buildWords(): BuildWords {
  return {
    // A build's statuses are a run's: the same words.
    status: runWords().status,
    phase: {
      pending: vscode.l10n.t('pending'),
      running: vscode.l10n.t('running'),
      passed: vscode.l10n.t('passed'),
      failed: vscode.l10n.t('failed'),
      stopped: vscode.l10n.t('stopped'),
    },
    cause: {
      first: '',
      retry: vscode.l10n.t('retry after a failed try'),
      'qa-failed': vscode.l10n.t('sent back: QA failed'),
      'review-changes': vscode.l10n.t('sent back: the reviewer asked for changes'),
      rerun: vscode.l10n.t('rerun'),
      resume: vscode.l10n.t('resumed'),
    },
    inThisWindow: vscode.l10n.t('in this window'),
    from: (source) => vscode.l10n.t('From {0}', source),
    project: (folder) => vscode.l10n.t('Project folder: {0}', folder),
    started: (when) => vscode.l10n.t('started {0}', when),
    ended: (when) => vscode.l10n.t('ended {0}', when),
    tries: (n) => vscode.l10n.t('{0} tries', n),
    attempt: (n) => vscode.l10n.t('try {0}', n),
    noRun: vscode.l10n.t('It failed before its agent run began.'),
  };
}
