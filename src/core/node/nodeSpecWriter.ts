// The CLI's SpecWriter: reads a spec from the disk, asks the change what to make of it, and replaces
// the file atomically (NodeWorkspaceFs.writeAtomic). The spec was written by agents or came with a
// cloned repository, so the path goes through the write tools' confinement (writePaths.ts): no
// symbolic link out of the folder given, no protected place, nothing but a regular file. A file
// that is missing, not a regular file (a folder, a pipe, a device, a link to one), over
// SPEC_MAX_BYTES or not UTF-8 is skipped (false); a path outside the folder, a link out of it or to
// nothing, or a protected place is refused (rejects). Edits through
// one writer run one at a time; a file changed by someone else between the read and the write is
// read again (three times at most).
import { SPEC_MAX_BYTES, changedText } from '../annotations/specWriter';
import type { SpecChange, SpecWriter } from '../annotations/specWriter';
import type { WorkspaceFs } from '../storage/workspaceFs';
import { isWindowsRoot, relativeInside } from '../tools/projectPaths';
import { createToolRunCache } from '../tools/registry';
import { resolveWritePath } from '../tools/writePaths';
import { NodeWorkspaceFs } from './nodeWorkspaceFs';

const TRIES = 3;

export class NodeSpecWriter implements SpecWriter {
  private queue: Promise<unknown> = Promise.resolve();

  /** `folder`: the absolute folder no edit may leave (the workspace). */
  constructor(
    private readonly folder: string,
    private readonly fs: WorkspaceFs = new NodeWorkspaceFs(),
  ) {}

  edit(absPath: string, change: (text: string) => SpecChange | undefined): Promise<boolean> {
    const next = this.queue.then(() => this.editNow(absPath, change));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async editNow(absPath: string, change: (text: string) => SpecChange | undefined): Promise<boolean> {
    const inside = relativeInside(absPath, this.folder, isWindowsRoot(this.folder));
    if (inside === undefined || inside.length === 0)
      throw new Error(`${absPath} is not a file inside ${this.folder}; specs outside it are not annotated.`);
    if (!(await this.regularFile(absPath))) return false;
    const context = {
      fs: this.fs,
      root: this.folder,
      rootInWorkspace: [],
      exclude: [],
      signal: new AbortController().signal,
    };
    const target = await resolveWritePath(inside.join('/'), context, createToolRunCache());
    if (!target.exists) return false;
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      const read = await this.readSpec(target.real);
      if (read === undefined) return false;
      const made = change(read.text);
      if (made === undefined) return false;
      const text = changedText(read.text, made);
      if (text === read.text) return false;
      const now = await this.readSpec(target.real);
      if (now?.text !== read.text) continue; // changed meanwhile: read it again
      await this.fs.writeAtomic(target.real, text, read.mode);
      return true;
    }
    throw new Error(`${absPath} kept changing while Groundwork annotated it; it was left as it is.`);
  }

  /** Whether `absPath` is a regular file or a link to one (or to nothing, which resolveWritePath refuses); false skips it. */
  private async regularFile(absPath: string): Promise<boolean> {
    const entry = await this.fs.info(absPath);
    if (entry === undefined) return false;
    if (entry.kind !== 'symlink') return entry.kind === 'file';
    const real = await this.fs.realpath(absPath).catch(() => undefined);
    const target = real === undefined ? undefined : await this.fs.info(real);
    return target === undefined || target.kind === 'file';
  }

  /** The spec's text (a leading BOM kept) and mode, or undefined when it is skipped. */
  private async readSpec(path: string): Promise<{ text: string; mode?: number } | undefined> {
    const info = await this.fs.info(path);
    if (info?.kind !== 'file' || info.size > SPEC_MAX_BYTES) return undefined;
    const bytes = await this.fs.read(path, SPEC_MAX_BYTES).catch(() => undefined);
    if (bytes === undefined) return undefined;
    try {
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      return { text, ...(info.mode !== undefined ? { mode: info.mode & 0o777 } : {}) };
    } catch {
      return undefined; // not UTF-8: not a spec Groundwork edits
    }
  }
}
