// The build folders under `.groundwork/builds/`: making one when a build starts, reading and listing
// them (each checked: a cloned repository may hold build folders), replacing `build.yaml` atomically
// on every change, the build's log and report, and the lock a live build holds so that a build whose
// process died shows as interrupted.
import { BUILD_FILES, BUILDS_DIR, buildFile } from '../plan/layout';
import { StorageError, quotePath } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { visibleText } from '../visibleText';
import { BUILD_YAML_MAX_BYTES, isBuildId, newBuildId, parseBuildYaml, serializeBuildRecord } from './buildRecord';
import type { BuildRecord, BuildStatus } from './buildTypes';

/** The newest builds a list reads. */
export const BUILD_LIST_MAX = 200;
const BUILDS_AREA = 'builds';
const CREATE_ATTEMPTS = 16;
const LOG_LINE_MAX_CHARS = 2000;

export type BuildRead = { ok: true; build: BuildRecord } | { ok: false; problem: string };

/** 'running' with nobody holding the build's lock: its process died (a reload, a kill) before it ended. */
export function buildDisplayStatus(build: BuildRecord, held: boolean): BuildStatus | 'interrupted' {
  return build.status === 'running' && !held ? 'interrupted' : build.status;
}

export class BuildStore {
  constructor(private readonly store: WorkspaceStore) {}

  /**
   * Makes the build's folder and its `build.yaml`, and runs `fn` holding the build's lock, taken
   * before the folder exists (nobody sees the build unheld). `slug` names it (the plan's slug).
   */
  async createHeld<T>(
    fields: Omit<BuildRecord, 'id'>,
    slug: string,
    random: () => string,
    now: number,
    fn: (build: BuildRecord) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      const id = newBuildId(slug, now, random());
      let created: BuildRecord | undefined;
      try {
        return await this.withBuildLock(id, async () => {
          created = await this.store.withLock(async () => {
            if ((await this.store.info(buildFile(id))) !== undefined) return undefined;
            const build = { ...fields, id };
            await this.store.writeText(buildFile(id, BUILD_FILES.record), serializeBuildRecord(build));
            return build;
          }, BUILDS_AREA);
          if (created === undefined) throw new StorageError('busy', id, 'taken');
          return fn(created);
        });
      } catch (err) {
        if (created !== undefined || !(err instanceof StorageError) || err.code !== 'busy') throw err;
      }
    }
    throw new StorageError(
      'io',
      displayPath(BUILDS_DIR),
      `No free name for a new build folder was found in ${quotePath(displayPath(BUILDS_DIR))} after ${CREATE_ATTEMPTS} tries.`,
    );
  }

  /** The build, or a sentence saying why it cannot be read (naming `build.yaml`). */
  async read(id: string): Promise<BuildRead> {
    if (!isBuildId(id))
      return { ok: false, problem: `${quotePath(id)} is not a build id (YYYYMMDD-HHMMSS-<name>-<4 hex digits>).` };
    const rel = buildFile(id, BUILD_FILES.record);
    const shown = quotePath(displayPath(rel));
    let text: string | undefined;
    try {
      text = await this.store.readText(rel, BUILD_YAML_MAX_BYTES);
    } catch (err) {
      if (err instanceof StorageError) return { ok: false, problem: err.message };
      throw err;
    }
    if (text === undefined) return { ok: false, problem: `${shown} is missing: the folder holds no build.` };
    const parsed = parseBuildYaml(text);
    if (!parsed.ok) return { ok: false, problem: `${shown} is damaged: ${parsed.reason}.` };
    if (parsed.value.id !== id)
      return { ok: false, problem: `${shown} is damaged: its id ${parsed.value.id} is not the name of its folder.` };
    return { ok: true, build: parsed.value };
  }

  /** Replaces `build.yaml` with `build` (atomically, under the area lock); the caller holds the build's lock. */
  async save(build: BuildRecord): Promise<void> {
    if (!isBuildId(build.id)) throw new RangeError(`${quotePath(build.id)} is not a build id.`);
    const text = serializeBuildRecord(build);
    await this.store.withLock(() => this.store.writeText(buildFile(build.id, BUILD_FILES.record), text), BUILDS_AREA);
  }

  /** The newest BUILD_LIST_MAX builds, newest first, and the folders among them that could not be read. */
  async list(): Promise<{ builds: BuildRecord[]; problems: { id: string; problem: string }[] }> {
    const ids = (await this.store.list(BUILDS_DIR)).filter(isBuildId).sort().reverse().slice(0, BUILD_LIST_MAX);
    const read = await Promise.all(ids.map((id) => this.read(id)));
    const builds: BuildRecord[] = [];
    const problems: { id: string; problem: string }[] = [];
    read.forEach((r, i) => (r.ok ? builds.push(r.build) : problems.push({ id: ids[i] as string, problem: r.problem })));
    return { builds, problems };
  }

  /** Whether a process holds the build's lock (the build is live). Tried without waiting. */
  async isHeld(id: string): Promise<boolean> {
    if (!isBuildId(id)) throw new StorageError('unsafe-path', id, `Refused the build id ${quotePath(id)}.`);
    return this.store.isSessionLockHeld(`build-${id}`);
  }

  /** Runs `fn` holding the build's lock (`locks/build-<id>.lock`), as a live build does; StorageError 'busy' at once when held. */
  async withBuildLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    if (!isBuildId(id)) throw new StorageError('unsafe-path', id, `Refused the build id ${quotePath(id)}.`);
    return this.store.withSessionLock(`build-${id}`, fn);
  }

  /** Appends one line to the build's log (`build.log`): `<time> <text>`, the text on one line. */
  async log(id: string, at: string, text: string): Promise<void> {
    const line = `${at} ${visibleText(text.replace(/[\r\n]+/g, ' ')).slice(0, LOG_LINE_MAX_CHARS)}`;
    // The build's lock makes its holder the log's only writer: no log lock per line.
    await this.store.files.appendRecord(await this.store.resolve(buildFile(id, BUILD_FILES.log)), `${line}\n`);
  }

  /** Writes the build's `report.md`. */
  async writeReport(id: string, markdown: string): Promise<void> {
    await this.store.writeText(buildFile(id, BUILD_FILES.report), markdown);
  }
}
