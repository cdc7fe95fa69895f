// The nodes of the plan explorer (planExplorer.ts reads them, explorerItems.ts draws them, the
// commands of each feature receive them as their argument).
import type * as vscode from 'vscode';
import type { ExternalSpecEntry } from '../core/build/externalSpec';
import type { DocumentNode, PlanNode, SessionNode } from '../core/explorer/explorerTree';
import type { JournalEntry } from '../core/journal/journalEntry';
import type { Sleeper } from '../core/sleep/sleepLog';
import type { BuildRow, PhaseRow } from './buildsTree';
import type { CasesRow } from './casesTree';
import type { ExplorerRoot } from './explorerRoots';
import type { FileRow, RunRow } from './runsTree';

export type GroupName = 'sessions' | 'plans' | 'journal' | 'sleepers' | 'discoveries' | 'builds' | 'runs' | 'specs';

/**
 * `via` prefixes the tree item's id of a build (and of what is beneath it) shown under its plan as
 * well as in the Builds group: `plan:<slug>/`. A run file's `under` is the id of the run row it is
 * listed beneath (a build's try is also a row of the Runs group). `root` is the folder a node
 * belongs to; the groups of a folder that is not the one Groundwork works in carry it in their id.
 */
export type ExplorerNode =
  /** A folder of a multi-root window that has a `.groundwork/`. */
  | { kind: 'folder'; root: ExplorerRoot }
  | { kind: 'group'; group: GroupName; count: number; tooltip?: readonly string[]; root: ExplorerRoot }
  | { kind: 'plan'; plan: PlanNode; root: ExplorerRoot }
  /** One of a plan's documents: the Idea Brief, the brainstorm's result and context, a round. */
  | { kind: 'document'; doc: DocumentNode; slug: string; root: ExplorerRoot }
  /** The cases a plan's builds reported, under the plan. */
  | { kind: 'planCases'; slug: string; ids: readonly string[]; root: ExplorerRoot }
  | { kind: 'session'; session: SessionNode; root: ExplorerRoot }
  /** A Spec Kit feature folder or a Kiro spec of the workspace. */
  | { kind: 'spec'; spec: ExternalSpecEntry; root: ExplorerRoot }
  | { kind: 'entry'; entry: JournalEntry }
  | { kind: 'sleeper'; sleeper: Sleeper }
  | { kind: 'build'; row: BuildRow; via?: string }
  | { kind: 'phase'; row: PhaseRow; via?: string }
  | { kind: 'run'; row: RunRow; via?: string }
  | { kind: 'runFile'; file: FileRow; under: string }
  /** A row of the Discoveries group (a status, a scope and impact, a case, or the unreadable lines), or a case under its plan (`via`). */
  | { kind: 'case'; row: CasesRow; via?: string }
  | { kind: 'note'; text: string; tooltip?: string }
  /** Something that cannot be read: it says what is wrong; `file`, when known, opens on a click. */
  | { kind: 'error'; text: string; file?: vscode.Uri };
