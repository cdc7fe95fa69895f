// Carries out what the brainstorm machine (brainstormMachine.ts) asks for, step after step: the
// session file saved, the round files and the artifacts written, the audit, the inquisitors and the
// coordinator called, each result fed back as an event. Apart from brainstormService.ts, whose
// entry points check, lock and load a brainstorm before it is driven here.
import { auditInput } from '../audit/auditLog';
import type { AuditLog } from '../audit/auditLog';
import type { Clock } from '../clock';
import { PLAN_FILES, planFile, roundFileName } from '../plan/layout';
import type { SessionRunner } from '../session/sessionRunner';
import type { WorkspaceStore } from '../storage/workspaceStore';
import type { BrainstormAgents } from './brainstormAgents';
import { renderBrainstormDocument, renderRoundFile } from './brainstormDocs';
import { due, step } from './brainstormMachine';
import type { BrainstormEffect, BrainstormEvent } from './brainstormMachine';
import { BrainstormError } from './brainstormTypes';
import type { BrainstormSession, StepOptions } from './brainstormTypes';
import { renderContextFile, toContext } from './contextFile';
import { ARTIFACT_MODE } from './planStore';
import type { Loaded, PlanStore } from './planStore';

/** One entry of the audit log for the brainstorm `slug` (its topic or answers as `text`). */
export async function auditEntry(
  audit: AuditLog,
  slug: string,
  kind: string,
  status: 'ok' | 'error',
  detail: string,
  text?: string,
): Promise<void> {
  await audit.append({ kind, input: auditInput('BRAINSTORM', slug, text), status, detail });
}

const machine = {
  step(state: BrainstormSession, event: BrainstormEvent) {
    const next = step(state, event);
    return { state: next.session, effects: next.effects };
  },
};

export interface BrainstormEffectsDeps {
  store: WorkspaceStore;
  clock: Clock;
  runner: SessionRunner;
  agents: BrainstormAgents;
  plans: PlanStore;
}

export class BrainstormEffects {
  private readonly audit: AuditLog;

  constructor(private readonly deps: BrainstormEffectsDeps) {
    this.audit = deps.runner.audit;
  }

  async drive(loaded: Loaded, event: BrainstormEvent | undefined, run: StepOptions): Promise<BrainstormSession> {
    const first = event === undefined ? { effects: due(loaded.session) } : { event };
    loaded.session = await this.deps.runner.drive<BrainstormSession, BrainstormEvent, BrainstormEffect>(
      machine,
      loaded.session,
      first,
      (effect: BrainstormEffect, session: BrainstormSession) => {
        loaded.session = session;
        return this.runEffect(effect, loaded, run);
      },
    );
    return loaded.session;
  }

  async runEffect(effect: BrainstormEffect, loaded: Loaded, run: StepOptions): Promise<BrainstormEvent | undefined> {
    const { store } = this.deps;
    const slug = loaded.session.slug;
    switch (effect.type) {
      case 'save':
        await this.deps.plans.save(loaded);
        return undefined;
      case 'write-round':
        await store.writeText(
          planFile(slug, `${PLAN_FILES.roundsDir}/${roundFileName(effect.round)}`),
          renderRoundFile(loaded.session, effect.round),
          ARTIFACT_MODE,
        );
        return undefined;
      case 'remove-rounds':
        await store.remove(planFile(slug, PLAN_FILES.roundsDir));
        return undefined;
      case 'write-artifacts':
        // Each file is replaced atomically; the sentinel, written last, vouches for the pair.
        const context = renderContextFile(toContext(loaded.session));
        await store.writeText(
          planFile(slug, PLAN_FILES.document),
          renderBrainstormDocument(loaded.session),
          ARTIFACT_MODE,
        );
        await store.writeText(planFile(slug, PLAN_FILES.context), context, ARTIFACT_MODE);
        await store.writeText(planFile(slug, PLAN_FILES.sentinel), `${this.isoNow()}\n`, ARTIFACT_MODE);
        return undefined;
      case 'audit':
        await auditEntry(this.audit, slug, effect.kind, effect.status, effect.detail);
        return undefined;
      case 'notice':
        run.onProgress?.({ kind: 'notice', text: effect.text });
        return undefined;
      case 'reject':
        throw new BrainstormError(effect.kind, effect.reason);
      case 'call-inquisitors':
        return this.deps.agents.inquire(loaded.session, run);
      case 'call-coordinator':
        return this.deps.agents.coordinate(loaded.session, effect.task, run);
    }
  }

  private isoNow(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
