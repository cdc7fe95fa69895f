// The nodes of the plan explorer (planExplorer.ts reads them, explorerItems.ts draws them, the
// commands on them receive them as their argument). The features' rows are `row` nodes: each
// feature draws and expands its own (explorerGroups.ts).
import type { ExternalSpecEntry } from '../../core/build/externalSpec';
import type { DocumentNode, PlanNode, SessionNode } from '../../core/explorer/explorerTree';
import type { JournalEntry } from '../../core/journal/journalEntry';
import type { Sleeper } from '../../core/sleep/sleepLog';
import type { ExplorerGroup, GroupChild } from './explorerGroups';
import type { ExplorerRoot } from './explorerRoots';

/** The explorer's own groups; a feature's group is named by its `ExplorerGroup.id`. */
export type OwnGroup = 'sessions' | 'plans' | 'journal' | 'sleepers' | 'specs';

/** `root` is the folder a node belongs to; the groups of a folder that is not the one Groundwork works in carry it in their id. */
export type ExplorerNode =
  /** A folder of a multi-root window that has a `.groundwork/`. */
  | { kind: 'folder'; root: ExplorerRoot }
  | { kind: 'group'; group: OwnGroup; count: number; root: ExplorerRoot }
  /** A feature's group (the folder Groundwork works in only). */
  | { kind: 'featureGroup'; group: ExplorerGroup; count: number; tooltip?: readonly string[]; root: ExplorerRoot }
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
  /** A feature's row, a note, or something that cannot be read (`file`, when known, opens on a click). */
  | GroupChild;
