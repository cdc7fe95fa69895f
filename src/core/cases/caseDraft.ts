// What a person or an agent gives for a new case, and why it cannot become one, in their words.
// Apart from the line format (caseRecord.ts): the curator and the store check a draft before any
// case exists; newCase there makes the case.
import { describeValue } from '../inputChecks';
import {
  CASE_CATEGORIES,
  CASE_IMPACTS,
  contentProblem,
  isCaseCategory,
  isCaseImpact,
  isCaseScope,
  labelProblem,
} from './caseRecord';
import type { CaseCategory, CaseImpact, CaseScope } from './caseRecord';

/** What a new case is made from; the store adds the id, the status and the times. */
export interface CaseDraft {
  content: string;
  scope: CaseScope;
  impact: CaseImpact;
  category: CaseCategory;
  sourceTaskId?: string;
  sourceAgentId?: string;
}

/** Why a draft cannot become a case, in words for the person or agent who gave it; undefined when it can. */
export function draftProblem(draft: CaseDraft): string | undefined {
  const problem = contentProblem(draft.content);
  if (problem !== undefined) return problem;
  if (!isCaseScope(draft.scope)) return `the scope must be local or global (got ${describeValue(draft.scope)})`;
  if (!isCaseImpact(draft.impact))
    return `the impact must be one of ${CASE_IMPACTS.join(', ')} (got ${describeValue(draft.impact)})`;
  if (!isCaseCategory(draft.category))
    return `the category must be one of ${CASE_CATEGORIES.join(', ')} (got ${describeValue(draft.category)})`;
  for (const [field, value] of [
    ['the task', draft.sourceTaskId],
    ['the agent', draft.sourceAgentId],
  ] as const) {
    if (value === undefined) continue;
    const problem = labelProblem(field, value);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
