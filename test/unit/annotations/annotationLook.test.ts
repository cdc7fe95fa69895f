import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { annotationAt, annotationLook, noteLook, regionLook } from '../../../src/core/annotations/annotationLook';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';

const SPEC = [
  '<!--@ax:0-10:green:task-001-->Log in<!--/@ax-->',
  '<!--@ax-discovery:task-001:disc-001-->active note<!--/@ax-->',
  '<!--@ax-discovery:task-001:disc-002-->outdated note<!--/@ax-->',
  '<!--@ax:0-10:Blue:task-002-->Reset <!--@ax-discovery:task-002:disc-003-->archived<!--/@ax--> it<!--/@ax-->',
  '<!--@ax:0-10:teal:task-003-->Odd colour<!--/@ax-->',
  '<!--@ax-discovery:task-009:disc-404-->no such case<!--/@ax-->',
].join('\n');

const cases: Record<string, Pick<DiscoveryCase, 'status'>> = {
  'disc-001': { status: 'active' },
  'disc-002': { status: 'outdated' },
  'disc-003': { status: 'archived' },
};
const lookup = (id: string) => cases[id] as DiscoveryCase | undefined;
const lines = (ranges: readonly { start: { line: number } }[]) => ranges.map((r) => r.start.line);

describe('annotationLook: what the editor draws', () => {
  test('notes by their case, regions by colour (any case of letters), every marker dimmed, a count above regions with notes', () => {
    const look = annotationLook(parseAnnotations(SPEC), lookup);
    assert.deepEqual(Object.fromEntries(Object.entries(look.notes).map(([k, v]) => [k, lines(v)])), {
      active: [1],
      outdated: [2],
      archived: [3],
      missing: [5],
    });
    assert.deepEqual(lines(look.regions.green), [0]);
    assert.deepEqual(lines(look.regions.blue), [3]);
    assert.deepEqual(lines(look.regions.other), [4]);
    assert.equal(look.markers.length, 14);
    assert.deepEqual(
      look.lenses.map((l) => [l.task, l.notes, l.stale]),
      [
        ['task-001', 2, 1],
        ['task-002', 1, 1],
      ],
    );
  });

  test('without the cases (none kept, or not read yet) every note looks active', () => {
    const look = annotationLook(parseAnnotations(SPEC));
    assert.deepEqual(lines(look.notes.active), [1, 2, 3, 5]);
    assert.deepEqual(
      look.lenses.map((l) => l.stale),
      [0, 0],
    );
  });

  test('a deleted case looks missing; colour names are matched without case', () => {
    assert.equal(noteLook({ status: 'deleted' } as DiscoveryCase), 'missing');
    assert.equal(noteLook(undefined), 'missing');
    assert.equal(regionLook('GREEN'), 'green');
    assert.equal(regionLook('green-ish'), 'other');
  });

  test('annotationAt: the innermost annotation under a position, markers included', () => {
    const parse = parseAnnotations(SPEC);
    const at = (line: number, character: number) => annotationAt(parse, { line, character });
    assert.equal(at(3, 2)?.kind, 'region');
    const inner = at(3, 50);
    assert.equal(inner?.kind === 'discovery' && inner.caseId, 'disc-003');
    assert.equal(at(3, SPEC.split('\n')[3]!.length), undefined, 'just past the end');
    assert.equal(at(9, 0), undefined);
  });
});
