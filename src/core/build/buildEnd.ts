// The end of a build: its status and the reason it ended, a completed build's local discoveries
// archived, report.md written. Apart from the phase loop (buildCarry.ts), which says how the last
// phase ended.
import { readChanges } from '../run/changesFile';
import type { Going, PhaseEnd } from './buildCarry';
import type { BuildNotes } from './buildNotes';
import { RECORD_TEXT_MAX_CHARS } from './buildRecordParts';
import { buildReport } from './buildReport';
import type { BuildDeps } from './buildRunner';
import { failedBuildReason } from './buildText';
import type { BuildRecord } from './buildTypes';

export class BuildEnd {
  constructor(
    private readonly deps: BuildDeps,
    private readonly notes: BuildNotes,
  ) {}

  async finish(going: Going, ended: PhaseEnd): Promise<BuildRecord> {
    const { build } = going;
    const done = build.phases.every((p) => p.status === 'passed');
    build.status = ended.kind === 'stopped' ? 'stopped' : done && ended.kind === 'passed' ? 'completed' : 'failed';
    build.endedAt = this.notes.stamp();
    if (build.status === 'completed') delete build.reason;
    else
      build.reason = failedBuildReason(
        build,
        ended.kind === 'failed' ? ended.reason : 'The build was stopped before it finished.',
      ).slice(0, RECORD_TEXT_MAX_CHARS);
    await this.notes.note(
      build,
      `build ${build.status}${build.reason ? `: ${build.reason}` : ''}`,
      'build.end',
      build.status === 'completed' ? 'ok' : 'error',
    );
    if (build.status === 'completed') await this.archiveLocal(build);
    const report = buildReport(build, {
      created: await this.createdFiles(build),
      discoveries: await this.discoveries(build),
    });
    await this.deps.builds.writeReport(build.id, report).catch(() => undefined);
    going.emit({ type: 'build', build });
    return build;
  }

  /** A completed build's local discoveries leave the prompts (archived, not lost); a failure to is noted, not fatal. */
  private async archiveLocal(build: BuildRecord): Promise<void> {
    if (this.deps.archiveTask === undefined) return;
    try {
      const n = (await this.deps.archiveTask(build.id)).length;
      if (n > 0) await this.notes.note(build, `archived ${n} local discover${n === 1 ? 'y' : 'ies'} of the build`);
    } catch (err) {
      await this.notes.note(
        build,
        `its local discoveries could not be archived: ${err instanceof Error ? err.message : String(err)}`,
        undefined,
        'error',
      );
    }
  }

  /** Every file the build's runs created, relative to the project folder (for the report). */
  private async createdFiles(build: BuildRecord): Promise<string[]> {
    const files = new Set<string>();
    for (const phase of build.phases) {
      for (const attempt of phase.attempts) {
        if (attempt.runId === undefined || phase.check === 'brief') continue;
        const read = await readChanges(this.deps.store, attempt.runId, this.deps.hash);
        if (read.ok) for (const f of read.changes.files) if (f.before === null) files.add(f.path);
      }
    }
    return [...files].sort();
  }

  private async discoveries(build: BuildRecord): Promise<string[]> {
    return (await this.deps.discoveriesOf?.(build.id).catch(() => undefined)) ?? [];
  }
}
