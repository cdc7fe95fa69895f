// What a build writes as it goes: each change saved to build.yaml at once (one save after another),
// logged to build.log and, for phase changes and the end, audited. Apart from the phase loop
// (buildCarry.ts): the runner (buildRunner.ts) notes its own changes through the same saves.
import { auditInput } from '../audit/auditLog';
import type { AuditLog } from '../audit/auditLog';
import type { BuildDeps } from './buildRunner';
import type { BuildRecord } from './buildTypes';

export class BuildNotes {
  constructor(
    private readonly deps: BuildDeps,
    private readonly audit: AuditLog,
  ) {}

  private saving: Promise<void> = Promise.resolve();

  /** Saves the record (unless `save` is false), logs `text`, and (with `kind`) audits it; a log or audit that fails does not stop the build. */
  async note(
    build: BuildRecord,
    text: string,
    kind?: string,
    status: 'ok' | 'error' = 'ok',
    save = true,
  ): Promise<void> {
    const at = this.stamp();
    build.updatedAt = at;
    // Three files, each with its own lock: written side by side.
    const audit = async () => {
      if (kind === undefined) return;
      const usage = kind === 'build.end' && build.usage ? { usage: build.usage } : {};
      const cost = kind === 'build.end' && build.costUsd !== undefined ? { costUsd: build.costUsd } : {};
      await this.audit
        .append({ kind, input: auditInput('BUILD', build.id, text), status, ...usage, ...cost })
        .catch(() => undefined);
    };
    await Promise.all([
      save ? this.save(build) : undefined,
      this.deps.builds.log(build.id, at, text).catch(() => undefined),
      audit(),
    ]);
  }

  /** Saves run one after another, each writing the record as it is then: a late one never puts back an older state. */
  save(build: BuildRecord): Promise<void> {
    const next = this.saving.then(() => this.deps.builds.save(build));
    this.saving = next.catch(() => undefined);
    return next;
  }

  stamp(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
