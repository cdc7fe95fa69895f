// A WorkspaceStore at '/ws' over MemoryWorkspaceFs, with helpers to plant and read raw lines, so
// that journal, sleep and CLI tests run on the real JSONL log and its handling of damage.
import { WorkspaceStore, type WorkspaceStoreOptions } from '../../../src/core/storage/workspaceStore';
import { MemoryWorkspaceFs } from './memoryWorkspaceFs';

export class MemoryWorkspace {
  readonly root = '/ws';
  readonly fs = new MemoryWorkspaceFs();
  readonly store: WorkspaceStore;

  constructor(options: WorkspaceStoreOptions = {}) {
    this.store = new WorkspaceStore(this.fs, this.root, options);
  }

  /** The absolute path of `rel` inside `.groundwork`. */
  path(rel: string): string {
    return `${this.root}/.groundwork/${rel}`;
  }

  /** The file's lines without their newlines (a torn last line included); undefined when missing. */
  lines(rel: string): string[] | undefined {
    const text = this.fs.text(this.path(rel));
    if (text === undefined) return undefined;
    return text === '' ? [] : text.replace(/\n$/, '').split('\n');
  }

  /** Replaces the file with these lines, each ending in a newline, as another program would. */
  plant(rel: string, lines: readonly string[]): void {
    this.fs.writeRaw(this.path(rel), lines.map((l) => `${l}\n`).join(''));
  }

  /** Adds bytes at the end as they are, e.g. a record cut short by a crash. */
  appendRaw(rel: string, text: string): void {
    this.fs.writeRaw(this.path(rel), (this.fs.text(this.path(rel)) ?? '') + text);
  }
}
