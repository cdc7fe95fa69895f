// What a feature shows in the plan explorer: a group of rows under the folder Groundwork works in
// (the Discoveries, Builds and Runs groups), registered with the explorer through `Host.explorer`.
// The explorer draws whatever is registered, in `order`, and redraws when a group comes or goes:
// which contribution registers first does not matter, and the explorer imports no feature. The
// feature draws its own rows (rowItem.ts) and says what is beneath each.
import type * as vscode from 'vscode';
import type { BuildFacts, CaseFacts } from '../../core/explorer/explorerTree';
import { Emitter, toDisposable, type DisposableLike } from '../base/lifecycle';

/** A row a feature made: its own data (`value`, what its context menu's commands are given), drawn and expanded by the feature. */
export interface GroupRow<T = unknown> {
  /** What kind of row it is (`run`, `build`, `phase`, `case`…): a command of its context menu checks it (rowValue). */
  readonly type: string;
  readonly value: T;
  /** Its tree item; the id unique in the whole tree (a row shown under a plan too has `plan:<slug>/` before it). */
  item(): vscode.TreeItem;
  /** What is beneath it; absent for a leaf. May throw: the explorer shows the error in its place. */
  children?(): Promise<GroupChild[]>;
}

/** What a group lists: rows, a line of information, or something that cannot be read (a click opens `file`). */
export type GroupChild =
  | { kind: 'row'; row: GroupRow }
  | { kind: 'note'; text: string; tooltip?: string }
  | { kind: 'error'; text: string; file?: vscode.Uri };

/** What a group shows now. */
export interface GroupListing {
  /** The number on the group's row. */
  count: number;
  /** The group's tooltip, paragraphs of plain text. */
  tooltip?: readonly string[];
  rows: readonly GroupChild[];
  /** What the plans list of this group: the builds made from a plan, the cases those builds reported (core/explorer). */
  plans?: PlanLinks;
}

export interface PlanLinks {
  builds?: readonly BuildFacts[];
  cases?: readonly CaseFacts[];
  /** The rows of these builds or cases (a plan's), in that order, their tree ids under `via` (`plan:<slug>/`). */
  rowsOf(ids: readonly string[], via: string): GroupChild[];
}

export interface ExplorerGroup {
  /** The group's name: its row's contextValue and tree id (`group:<id>`). */
  readonly id: string;
  readonly label: string;
  /** A codicon id. */
  readonly icon: string;
  /** Where it sits among the features' groups: lower first. */
  readonly order: number;
  /** What it shows changed: the group (and the plans, when it links to them) is read again. */
  readonly onDidChange: vscode.Event<void>;
  /** What it shows; undefined when there is nothing (the group is left out). A group that throws is left out too. */
  read(): Promise<GroupListing | undefined>;
  /** Reads again from the disk (the view's Refresh). */
  refresh(): void;
}

/** What a group reads from: a listing, or undefined when there is nothing to show. */
export interface ListingSource<L> {
  readonly onDidChange: vscode.Event<void>;
  list(): Promise<L | undefined>;
  refresh(): void;
}

/** A group over a source that lists (runs, builds, cases): each listing it gives, shown as `show` makes it. */
export function listingGroup<L>(
  group: Pick<ExplorerGroup, 'id' | 'label' | 'icon' | 'order'>,
  source: ListingSource<L>,
  show: (listing: L) => GroupListing,
): ExplorerGroup {
  return {
    ...group,
    onDidChange: source.onDidChange,
    refresh: () => source.refresh(),
    read: async () => {
      const listing = await source.list();
      return listing === undefined ? undefined : show(listing);
    },
  };
}

/** How a feature brings a row of its own group into view (the explorer does it: it knows the nodes VS Code holds). */
export type RowRevealer = (groupId: string, match: (row: GroupRow) => boolean) => Promise<boolean>;

/** The groups the features registered; the plan explorer reads them (made once, in extension.ts). */
export class ExplorerGroups implements DisposableLike {
  private readonly registered: ExplorerGroup[] = [];
  private readonly changed = new Emitter<void>();
  /** A group was registered or went: the explorer redraws its root. */
  readonly onDidChange = this.changed.event;
  private revealer: RowRevealer | undefined;

  register(group: ExplorerGroup): DisposableLike {
    if (this.registered.some((g) => g.id === group.id))
      throw new Error(`explorer group ${group.id} is registered twice`);
    this.registered.push(group);
    this.registered.sort((a, b) => a.order - b.order);
    this.changed.fire();
    return toDisposable(() => {
      const at = this.registered.indexOf(group);
      if (at < 0) return;
      this.registered.splice(at, 1);
      this.changed.fire();
    });
  }

  /** In their order. */
  list(): readonly ExplorerGroup[] {
    return this.registered;
  }

  get(id: string): ExplorerGroup | undefined {
    return this.registered.find((g) => g.id === id);
  }

  /** Set by the explorer once its view exists. */
  setRevealer(revealer: RowRevealer | undefined): void {
    this.revealer = revealer;
  }

  /** Selects and shows the first row of group `groupId` that `match`es (searching three levels deep); false when none is listed, or there is no view. */
  reveal(groupId: string, match: (row: GroupRow) => boolean): Promise<boolean> {
    return this.revealer ? this.revealer(groupId, match) : Promise.resolve(false);
  }

  dispose(): void {
    this.registered.length = 0;
    this.changed.dispose();
  }
}

/** The feature's data of an explorer node given to a command of its context menu, when it is a row of that type. */
export function rowValue<T>(node: unknown, type: string): T | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const { kind, row } = node as { kind?: unknown; row?: Partial<GroupRow> };
  return kind === 'row' && row?.type === type ? (row.value as T) : undefined;
}
