// Temp files that are written and then renamed or linked into place: the replacement of a file
// (NodeWorkspaceFs.writeAtomic) and the content of a lock (lockFile.ts). One naming scheme, so
// that listings hide both and one sweeper removes what killed writers left.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** `.<name>.tmp-<pid>-<8 hex>`: hidden, and naming the process that writes it. */
const TEMP_NAME = /^\.(.*)\.tmp-(\d+)-[0-9a-f]{8}$/;
/** Long enough for a file name of 255 bytes once the dot and the suffix are added. */
const MAX_BASE_LENGTH = 100;
/** A temp file this old was left by a killed writer: a live one renames it within moments. */
const TEMP_MAX_AGE_MS = 60_000;

/** A fresh temp path beside `path`, for this process. */
export function tempPathFor(path: string): string {
  return join(
    dirname(path),
    `.${basename(path).slice(0, MAX_BASE_LENGTH)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

export interface SweepOptions {
  /** Only the temp files of this file (a path in `dir`); all of them when omitted. */
  of?: string;
  /**
   * Also removes a temp file, however young, whose writer this says is gone. Only for writers
   * that start again when their temp file vanishes (the lock's), since the pid may be another
   * host's on a shared folder.
   */
  writerGone?: (pid: number) => boolean;
}

/** Removes temp files in `dir` that killed writers left: over a minute old, or see `writerGone`. */
export async function sweepTemps(dir: string, options: SweepOptions = {}): Promise<void> {
  const only = options.of === undefined ? undefined : basename(options.of).slice(0, MAX_BASE_LENGTH);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (match === null || (only !== undefined && match[1] !== only)) continue;
    const temp = join(dir, name);
    const st = await fsp.lstat(temp).catch(() => undefined);
    if (st === undefined) continue;
    const abandoned = Date.now() - st.mtimeMs > TEMP_MAX_AGE_MS || (options.writerGone?.(Number(match[2])) ?? false);
    if (abandoned) await fsp.rm(temp, { force: true }).catch(() => undefined);
  }
}
