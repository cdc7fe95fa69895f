// What may happen to a case: the status diagram (docs/discovery-cases.md, "Status transitions") and
// nothing else, plus the edits of its metadata the review offers. Each action is a pure function of
// the case; one the diagram does not allow is refused with a sentence that says why and what the
// person can do instead.
//
//   active ──outdated──► outdated          active ──parent task done / archive──► archived
//   outdated ──user confirms (edit, validate)──► active
//   outdated ──user confirms (delete)──► deleted ──(soft delete)──► archived
//   outdated ──unreviewed for N days──► archived        archived ──resurrect──► active
import { describeValue } from '../inputChecks';
import {
  contentProblem,
  freezeCase,
  isCaseCategory,
  isCaseImpact,
  labelProblem,
  parseCase,
  APPLIED_TO_MAX,
} from './caseRecord';
import { isCaseId } from './caseId';
import type {
  ArchiveReason,
  CaseCategory,
  CaseImpact,
  CaseMetadata,
  DiscoveryCase,
  OutdatedReason,
} from './caseRecord';

export type CaseAction =
  | { kind: 'edit'; content: string }
  | { kind: 'set-impact'; impact: CaseImpact }
  | { kind: 'set-category'; category: CaseCategory }
  | { kind: 'delete' }
  | { kind: 'promote' }
  | { kind: 'validate' }
  | { kind: 'outdated'; reason?: OutdatedReason; commit?: string }
  | { kind: 'archive'; reason?: ArchiveReason }
  | { kind: 'resurrect'; by?: 'user' | 'system' }
  | { kind: 'supersede'; by: string }
  | { kind: 'applied-to'; taskId: string };

/** An action the status diagram does not allow, or input it cannot take; the message is for a person. */
export class CaseTransitionError extends Error {
  override readonly name = 'CaseTransitionError';
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The case after `action` at `now` (ISO-8601 UTC). The same object when nothing changes (an edit
 * to the same text, a task it was applied to already). CaseTransitionError when refused.
 */
export function applyCaseAction(c: DiscoveryCase, action: CaseAction, now: string): DiscoveryCase {
  const refuse = (why: string): never => {
    throw new CaseTransitionError(why);
  };
  const id = c.id;
  switch (action.kind) {
    case 'edit': {
      if (c.status === 'archived')
        refuse(`${id} is archived, so its content cannot be edited; resurrect it first if it is still relevant.`);
      if (c.status === 'deleted')
        refuse(`${id} is deleted, so its content cannot be edited; add a new discovery instead.`);
      const problem = contentProblem(action.content);
      if (problem !== undefined) refuse(`${id} was not changed: ${problem}.`);
      if (action.content === c.content && c.status === 'active') return c;
      // Updating an outdated case is the person confirming what holds now: it is active again, and
      // validated then (so the staleness check looks for changes since, not since its creation).
      if (c.status === 'outdated')
        return change(
          c,
          now,
          { content: action.content, validatedAt: now },
          { validated: true, ...reactivated() },
          'active',
        );
      return change(c, now, { content: action.content }, {}, 'active');
    }
    case 'set-impact':
    case 'set-category': {
      if (c.status === 'archived' || c.status === 'deleted')
        refuse(
          `${id} is ${c.status}; only an active or outdated case can be re-rated. Resurrect it first if it matters again.`,
        );
      if (action.kind === 'set-impact') {
        if (!isCaseImpact(action.impact))
          refuse(`${describeValue(action.impact)} is not an impact; use low, medium, high or critical.`);
        return c.metadata.impact === action.impact ? c : change(c, now, {}, { impact: action.impact });
      }
      if (!isCaseCategory(action.category)) {
        refuse(
          `${describeValue(action.category)} is not a category; use Architecture, Conventions, Testing, Errors, API, Dependencies, Database or Frontend.`,
        );
      }
      return c.metadata.category === action.category ? c : change(c, now, {}, { category: action.category });
    }
    case 'delete':
      if (c.status === 'active')
        refuse(`${id} is active; only an outdated case can be deleted. Mark it outdated first, then delete it.`);
      if (c.status === 'deleted') refuse(`${id} is deleted already.`);
      if (c.status === 'archived')
        refuse(`${id} is archived, which keeps it out of every prompt already; there is nothing to delete.`);
      return change(c, now, {}, { deletedAt: now }, 'deleted');
    case 'promote':
      if (c.metadata.scope === 'global') refuse(`${id} is global already.`);
      if (c.status === 'archived' || c.status === 'deleted')
        refuse(`${id} is ${c.status}; resurrect it before promoting it to global.`);
      return change(c, now, {}, { scope: 'global' });
    case 'validate':
      if (c.status === 'archived') refuse(`${id} is archived; resurrect it first if it still holds.`);
      if (c.status === 'deleted')
        refuse(`${id} is deleted, so it cannot be validated; add it again as a new discovery if it holds after all.`);
      return change(
        c,
        now,
        { validatedAt: now },
        { validated: true, ...(c.status === 'outdated' ? reactivated() : {}) },
        'active',
      );
    case 'outdated':
      if (c.status === 'outdated')
        refuse(`${id} is marked outdated already; validate it if it still holds, or delete it.`);
      if (c.status === 'archived')
        refuse(`${id} is archived and no prompt carries it; resurrect it first if it should be reviewed again.`);
      if (c.status === 'deleted') refuse(`${id} is deleted; a deleted case can only be archived.`);
      if (action.commit !== undefined && !/^[0-9a-f]{7,64}$/.test(action.commit))
        refuse(`${describeValue(action.commit)} is not a commit hash.`);
      return change(
        c,
        now,
        {},
        {
          outdatedAt: now,
          outdatedReason: action.reason ?? 'marked by user',
          ...(action.commit !== undefined ? { outdatedCommit: action.commit } : {}),
        },
        'outdated',
      );
    case 'supersede':
      if (!isCaseId(action.by)) refuse(`${describeValue(action.by)} is not a case id.`);
      if (action.by === id) refuse(`${id} cannot supersede itself.`);
      if (c.status !== 'active') refuse(`${id} is ${c.status}; only an active case can be superseded by a newer one.`);
      return change(
        c,
        now,
        {},
        { outdatedAt: now, outdatedReason: 'superseded by newer discovery', supersededBy: action.by },
        'outdated',
      );
    case 'archive': {
      if (c.status === 'archived') refuse(`${id} is archived already.`);
      return change(c, now, {}, { archivedAt: now, archivedReason: action.reason ?? 'user' }, 'archived');
    }
    case 'resurrect':
      if (c.status !== 'archived') refuse(`${id} is ${c.status}; only an archived case can be resurrected.`);
      return change(c, now, {}, { resurrectedAt: now, resurrectedBy: action.by ?? 'user' }, 'active');
    case 'applied-to': {
      const problem = labelProblem('the task', action.taskId);
      if (problem !== undefined) refuse(`${id} was not changed: ${problem}.`);
      if (c.metadata.appliedTo.includes(action.taskId)) return c;
      if (c.metadata.appliedTo.length >= APPLIED_TO_MAX) return c;
      return change(c, now, {}, { appliedTo: [...c.metadata.appliedTo, action.taskId] });
    }
  }
}

/** What an outdated case leaves behind when a person confirms it: no outdated details, nothing supersedes it. */
function reactivated(): Partial<Mutable<CaseMetadata>> {
  return { outdatedAt: undefined, outdatedReason: undefined, outdatedCommit: undefined, supersededBy: null };
}

function change(
  c: DiscoveryCase,
  now: string,
  fields: Partial<Pick<Mutable<DiscoveryCase>, 'content' | 'validatedAt'>>,
  meta: Partial<Mutable<CaseMetadata>>,
  status = c.status,
): DiscoveryCase {
  const metadata: Mutable<CaseMetadata> = { ...c.metadata, ...meta };
  for (const key of Object.keys(metadata) as (keyof CaseMetadata)[])
    if (metadata[key] === undefined) delete metadata[key];
  const next = { ...c, ...fields, status, metadata, updatedAt: now };
  const checked = parseCase(next);
  if (!checked.ok) throw new CaseTransitionError(`${c.id} was not changed: ${checked.reason}.`);
  return freezeCase(checked.value);
}
