// The discovery cases as the annotations need them: looked up by id, synchronously (a decoration, a
// hover and the preview's markdown-it plugin cannot wait), from the window's CaseService. Read only
// once a document shows a discovery note, and again when `.groundwork/cases.jsonl` changes on disk
// (this window, another, the CLI, a git checkout) or the cases feature says it changed them.
import * as vscode from 'vscode';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import { CASES_FILE } from '../../core/plan/layout';
import type { Host } from '../host';
import { Disposable, toDisposable } from '../base/lifecycle';

/** Changes that come together (a compaction, a burst of reports) are read once. */
const RELOAD_DELAY_MS = 200;

export class AnnotationCases extends Disposable {
  private cases: Map<string, DiscoveryCase> | undefined;
  private wanted = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reading = false;
  private again = false;

  constructor(
    private readonly host: Host,
    private readonly changed: () => void,
  ) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  /** True once the workspace's cases have been read and it keeps any: unknown ids can then be told. */
  get ready(): boolean {
    return this.cases !== undefined;
  }

  /** The case with this id, as last read; undefined when unknown or not read yet. */
  get(id: string): DiscoveryCase | undefined {
    return this.cases?.get(id);
  }

  /** Something shows discovery notes: read the cases now, and follow their changes from here on. */
  want(): void {
    if (this.wanted) return;
    this.wanted = true;
    const root = this.host.workspace.root;
    if (root !== undefined) {
      const watcher = this._register(
        vscode.workspace.createFileSystemWatcher(
          new vscode.RelativePattern(root, `{.groundwork,.groundwork/${CASES_FILE}}`),
        ),
      );
      for (const event of [watcher.onDidChange, watcher.onDidCreate, watcher.onDidDelete])
        this._register(event(() => this.soon()));
    }
    const changed = this.host.services.casesChanged;
    if (changed !== undefined) this._register(changed(() => this.soon()));
    void this.read();
  }

  private soon(): void {
    if (this.timer !== undefined || this.isDisposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read();
    }, RELOAD_DELAY_MS);
  }

  private async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      const next = await this.load();
      if (this.isDisposed) return;
      this.cases = next;
      this.changed();
    } catch (err) {
      // Unreadable cases: the notes keep their last look; the Discoveries group says what is wrong.
      this.host.log.warn('annotations: the discovery cases could not be read', err);
    } finally {
      this.reading = false;
      if (this.again && !this.isDisposed) {
        this.again = false;
        this.soon();
      }
    }
  }

  /** The cases by id; undefined when the workspace keeps none (then no id is called unknown). */
  private async load(): Promise<Map<string, DiscoveryCase> | undefined> {
    const workspace = this.host.workspace;
    const discoveries = this.host.services.discoveries;
    if (!workspace.hasWorkspace || discoveries === undefined) return undefined;
    if ((await workspace.workspaceStore().info(CASES_FILE))?.kind !== 'file') return undefined;
    const list = await discoveries().list();
    return new Map(list.cases.map((c) => [c.id, c]));
  }
}
