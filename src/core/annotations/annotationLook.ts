// How a spec's annotations look, as data: which ranges get which highlight, the markers to dim,
// and the counts shown above each region. Pure, so the editor only turns ranges into decorations,
// and the bench measures the same work the editor does.
//
// A discovery note looks like its case: active is yellow, outdated dimmed and struck through,
// archived faded, and one whose case the workspace does not have (or has deleted) is marked
// missing. A region is its colour: green (implemented), blue (planned), and the other names the
// editor knows; any other name is 'other'.
import type { DiscoveryCase } from '../cases/caseRecord';
import type { Annotation, AnnotationParse, DiscoveryAnnotation } from './annotationParser';
import type { Position, Range } from './textPositions';

/** The looks a discovery note can have. */
export const NOTE_LOOKS = ['active', 'outdated', 'archived', 'missing'] as const;
export type NoteLook = (typeof NOTE_LOOKS)[number];

/** The region colours with a look of their own; any other colour name is 'other'. */
export const REGION_COLORS = ['green', 'blue', 'red', 'yellow', 'orange', 'purple'] as const;
export type RegionLook = (typeof REGION_COLORS)[number] | 'other';

/** A case as the look needs it: undefined when the workspace does not have it. */
export type CaseLookup = (caseId: string) => DiscoveryCase | undefined;

/** What is shown above a region: how many notes its task has in this document. */
export interface RegionLens {
  readonly range: Range;
  readonly task: string;
  readonly notes: number;
  /** Of those, how many are not active (outdated, archived, missing). */
  readonly stale: number;
}

export interface AnnotationLook {
  /** The content of discovery notes, by look. */
  readonly notes: Record<NoteLook, Range[]>;
  /** The content of regions, by colour. */
  readonly regions: Record<RegionLook, Range[]>;
  /** The markers themselves, dimmed. */
  readonly markers: Range[];
  readonly lenses: RegionLens[];
}

/** The look of a discovery note whose case is `c`. */
export function noteLook(c: DiscoveryCase | undefined): NoteLook {
  if (c === undefined || c.status === 'deleted') return 'missing';
  return c.status;
}

/** The look of a region's colour name (case does not matter). */
export function regionLook(color: string): RegionLook {
  const name = color.toLowerCase();
  return (REGION_COLORS as readonly string[]).includes(name) ? (name as RegionLook) : 'other';
}

/**
 * Everything the editor draws for a parse, with the cases' statuses from `lookup`; without one
 * (the workspace keeps no cases, or they are still being read) every note looks active.
 */
export function annotationLook(parse: AnnotationParse, lookup?: CaseLookup): AnnotationLook {
  const notes: Record<NoteLook, Range[]> = { active: [], outdated: [], archived: [], missing: [] };
  const regions: Record<RegionLook, Range[]> = {
    green: [],
    blue: [],
    red: [],
    yellow: [],
    orange: [],
    purple: [],
    other: [],
  };
  const markers: Range[] = [];
  const byTask = new Map<string, { notes: number; stale: number }>();
  for (const a of parse.annotations) {
    markers.push(a.openRange, a.closeRange);
    if (a.kind === 'region') {
      regions[regionLook(a.color)].push(a.contentRange);
      continue;
    }
    const look = lookup === undefined ? 'active' : noteLook(lookup(a.caseId));
    notes[look].push(a.contentRange);
    const count = byTask.get(a.task) ?? { notes: 0, stale: 0 };
    count.notes++;
    if (look !== 'active') count.stale++;
    byTask.set(a.task, count);
  }
  const lenses: RegionLens[] = [];
  for (const a of parse.annotations) {
    if (a.kind !== 'region') continue;
    const count = byTask.get(a.task);
    if (count !== undefined) lenses.push({ range: a.openRange, task: a.task, notes: count.notes, stale: count.stale });
  }
  return { notes, regions, markers, lenses };
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);
const contains = (r: Range, p: Position) => !before(p, r.start) && before(p, r.end);

/** The innermost annotation at `position` (its markers included), or undefined. */
export function annotationAt(parse: AnnotationParse, position: Position): Annotation | undefined {
  let found: Annotation | undefined;
  for (const a of parse.annotations) {
    if (before(position, a.range.start)) break; // annotations are in the order they open
    if (contains(a.range, position) && (found === undefined || a.depth > found.depth)) found = a;
  }
  return found;
}

/** The discovery notes of a task in a parse, in order. */
export function notesOf(parse: AnnotationParse, task: string): DiscoveryAnnotation[] {
  return parse.annotations.filter((a): a is DiscoveryAnnotation => a.kind === 'discovery' && a.task === task);
}
