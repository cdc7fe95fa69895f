// What the plan explorer shows of the features of the folder Groundwork works in: the groups they
// registered (explorerGroups.ts: the Discoveries, Builds and Runs groups), and what a plan needs of
// them (its builds, the cases they reported). A group that fails to read is left out, never a
// broken tree; a row whose children cannot be read shows why in their place.
import type { ExplorerTree } from '../../core/explorer/explorerTree';
import { visibleText } from '../../core/visibleText';
import { Disposable, DisposableStore, Emitter } from '../base/lifecycle';
import type { ExplorerGroup, ExplorerGroups, GroupChild, GroupListing, GroupRow } from './explorerGroups';

/** A group with what it shows now. */
export interface ShownGroup {
  group: ExplorerGroup;
  listing: GroupListing;
}

export class ExplorerSources extends Disposable {
  /** A group's id when its rows changed; undefined when groups were registered or went. */
  private readonly changed = this._register(new Emitter<string | undefined>());
  readonly onDidChange = this.changed.event;
  /** The groups shown the last time the groups were read: their coming or going redraws the root. */
  private readonly lastShown = new Set<string>();
  private readonly listening = this._register(new DisposableStore());

  constructor(private readonly registry: ExplorerGroups) {
    super();
    this.listen();
    this._register(
      registry.onDidChange(() => {
        this.listen();
        this.changed.fire(undefined);
      }),
    );
  }

  /** One listener per registered group, made again when the groups change. */
  private listen(): void {
    this.listening.clear();
    for (const group of this.registry.list()) this.listening.add(group.onDidChange(() => this.changed.fire(group.id)));
  }

  shown(id: string): boolean {
    return this.lastShown.has(id);
  }

  /** The groups that have something to show, in their order; `record`: remember them as shown. */
  async groups(record = true): Promise<ShownGroup[]> {
    const reads = await Promise.all(
      this.registry.list().map(async (group) => ({ group, listing: await group.read().catch(() => undefined) })),
    );
    const shown = reads.filter((r): r is ShownGroup => r.listing !== undefined);
    if (record) {
      this.lastShown.clear();
      for (const { group } of shown) this.lastShown.add(group.id);
    }
    return shown;
  }

  async group(id: string): Promise<ShownGroup | undefined> {
    const group = this.registry.get(id);
    const listing = await group?.read().catch(() => undefined);
    return group && listing ? { group, listing } : undefined;
  }

  /** A plan lists the builds made from it and the cases they reported: the links every group gives. */
  async relate(tree: ExplorerTree): Promise<void> {
    const links = (await this.groups(false)).flatMap(({ listing }) => (listing.plans ? [listing.plans] : []));
    tree.setBuildsAndCases(
      links.flatMap((l) => l.builds ?? []),
      links.flatMap((l) => l.cases ?? []),
    );
  }

  /** The rows of a plan's builds (`'builds'`) or of the cases they reported (`'cases'`), from the group that links them. */
  async planRows(kind: 'builds' | 'cases', ids: readonly string[], via: string): Promise<GroupChild[]> {
    if (ids.length === 0) return [];
    const links = (await this.groups(false)).find(({ listing }) => listing.plans?.[kind] !== undefined)?.listing.plans;
    return links?.rowsOf(ids, via) ?? [];
  }

  /** Whether a group links its rows to the plans (a change of it redraws the Plans group too). */
  async linksPlans(id: string): Promise<boolean> {
    return (await this.group(id))?.listing.plans !== undefined;
  }

  async rows(id: string): Promise<readonly GroupChild[]> {
    return (await this.group(id))?.listing.rows ?? [];
  }

  async children(row: GroupRow): Promise<GroupChild[]> {
    try {
      return (await row.children?.()) ?? [];
    } catch (err) {
      // The sentence may name a file of a cloned folder: one visible line.
      return [{ kind: 'error', text: oneSentence(err) }];
    }
  }

  refresh(): void {
    for (const group of this.registry.list()) group.refresh();
  }
}

function oneSentence(err: unknown): string {
  return visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim());
}
