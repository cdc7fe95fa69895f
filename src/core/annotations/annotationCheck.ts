// The discovery notes of a spec checked against the workspace's discovery cases: a note whose case
// the workspace does not hold, or holds as deleted, is a problem, with its range and a sentence
// that says what to do. Pure: the caller looks the cases up (the editor's diagnostics, the CLI).
import type { DiscoveryCase } from '../cases/caseRecord';
import type { Span } from './codeRegions';
import type { AnnotationParse } from './annotationParser';
import type { Range } from './textPositions';

/** `unknownCase`: the workspace holds no case with the note's id; `deletedCase`: it holds it, deleted. */
export type CaseProblemKind = 'unknownCase' | 'deletedCase';

/** One discovery note whose case is missing or deleted. */
export interface CaseProblem {
  readonly kind: CaseProblemKind;
  readonly caseId: string;
  readonly message: string;
  /** The note's opening marker, where its case id is written. */
  readonly range: Range;
  /** The opening marker's offsets in the text parsed. */
  readonly offsets: Span;
}

/** The sentence for a note whose case the workspace does not hold. */
export function unknownCaseMessage(caseId: string): string {
  return `${caseId} is not one of this workspace's discoveries (see groundwork cases list): correct the case id, or remove this note.`;
}

/** The sentence for a note whose case a person deleted. */
export function deletedCaseMessage(caseId: string): string {
  return `${caseId} was deleted from this workspace's discoveries: remove this note, or point it at the case that holds now.`;
}

/** A problem for each discovery note of `parse` whose case `lookup` does not give, or gives deleted; in the order of the text. */
export function caseProblems(
  parse: AnnotationParse,
  lookup: (caseId: string) => DiscoveryCase | undefined,
): CaseProblem[] {
  const problems: CaseProblem[] = [];
  for (const a of parse.annotations) {
    if (a.kind !== 'discovery') continue;
    const found = lookup(a.caseId);
    if (found !== undefined && found.status !== 'deleted') continue;
    const deleted = found !== undefined;
    problems.push({
      kind: deleted ? 'deletedCase' : 'unknownCase',
      caseId: a.caseId,
      message: deleted ? deletedCaseMessage(a.caseId) : unknownCaseMessage(a.caseId),
      range: a.openRange,
      offsets: { start: a.offsets.start, end: a.offsets.contentStart },
    });
  }
  // Annotations come in the order they open, which is the order of the text.
  return problems;
}
