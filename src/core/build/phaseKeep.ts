// What a passed phase leaves in the project folder: the analyst's brief names and places the
// project (or the person stops the build there) and keeps its requirements; the other replies are
// saved as files. Apart from the phase loop (buildCarry.ts), which decides that a phase passed.
import { REPLY_FILES } from './buildPrompt';
import type { BuildNotes } from './buildNotes';
import type { BuildDeps } from './buildRunner';
import type { AnalystBrief, BuildRecord, PhaseState } from './buildTypes';
import { absoluteIn, isTaken, saveProjectFile } from './projectFiles';
import { placeProject } from './projectPlace';
import { keepRequirements } from './specMarks';

export class PhaseKeep {
  constructor(
    private readonly deps: BuildDeps,
    private readonly notes: BuildNotes,
  ) {}

  /** What a passed phase leaves: the analyst's brief names and makes the project folder (or the person stops the build there); replies are saved as files. */
  async keep(
    build: BuildRecord,
    phase: PhaseState,
    reply: string,
    outcome: { brief?: AnalystBrief; summary?: BuildRecord['summary'] },
  ): Promise<'stopped' | undefined> {
    if (outcome.brief !== undefined) {
      if (
        (await this.placeProject(build, outcome.brief.projectName, reply, outcome.brief.target === 'existing')) ===
        'stopped'
      )
        return 'stopped';
      const kept = await keepRequirements(this.deps.store.files, this.deps.store.folder, build, reply);
      if (kept !== undefined) await this.notes.note(build, kept.text, undefined, kept.ok ? 'ok' : 'error');
    } else await this.keepReply(build, phase, reply);
    if (outcome.summary !== undefined) build.summary = outcome.summary;
    return undefined;
  }

  async keepReply(build: BuildRecord, phase: PhaseState, reply: string): Promise<void> {
    const file = REPLY_FILES[phase.check];
    if (file === undefined || build.projectDir === undefined || phase.check === 'brief' || reply.trim() === '') return;
    await saveProjectFile(this.deps.store.files, this.deps.store.folder, build.projectDir, file, reply);
  }

  /**
   * The project's folder: the feature's, or `<workspace>/<name>` — when that folder has anything in
   * it or the analyst sees a feature on existing code, the person is asked (projectPlace.ts); the
   * brief is saved there.
   */
  async placeProject(
    build: BuildRecord,
    name: string,
    brief: string,
    existing: boolean,
  ): Promise<'stopped' | undefined> {
    build.projectName = name;
    if (build.projectDir === undefined) {
      const fs = this.deps.store.files;
      const place = this.deps.place;
      const placed = await placeProject(name, existing, {
        taken: (dir) => isTaken(fs, absoluteIn(this.deps.store.folder, dir)),
        ...(place ? { ask: place } : {}),
      });
      if (placed.note !== undefined) await this.notes.note(build, placed.note);
      if (placed.kind === 'stop') return 'stopped';
      if (placed.kind === 'workspace') build.mode = 'feature';
      build.projectDir = placed.kind === 'workspace' ? '.' : placed.dir;
    }
    await saveProjectFile(
      this.deps.store.files,
      this.deps.store.folder,
      build.projectDir,
      REPLY_FILES.brief as string,
      brief,
    );
    await this.notes.save(build);
    return undefined;
  }
}
