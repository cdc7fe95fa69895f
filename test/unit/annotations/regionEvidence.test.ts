// What a build's final verification writes after each requirement's region: its tests or that
// none names it, written again on every build, never over a person's words, and never able to
// open a marker or a tag whatever a test's name holds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import type { RegionAnnotation } from '../../../src/core/annotations/annotationParser';
import { evidenceAfter, evidenceText, setRegionEvidence } from '../../../src/core/annotations/regionEvidence';

const SPEC =
  '# Requirements\n\n- <!--@ax:0-10:green:task-001-->[task-001] adds<!--/@ax-->\n- <!--@ax:0-10:blue:task-002-->[task-002] exports<!--/@ax--> (see the notes)\n';
const regions = (text: string) =>
  parseAnnotations(text).annotations.filter((a): a is RegionAnnotation => a.kind === 'region');

describe('evidence after a region', () => {
  test('written after the region, read back by the hover, replaced by the next build; a person’s words stay', () => {
    const once = setRegionEvidence(
      SPEC,
      new Map([
        ['task-001', evidenceText('passed', ['task-001 adds (passed)'])],
        ['task-002', evidenceText('untested', [])],
      ]),
    );
    assert.match(once, /\[task-001\] adds<!--\/@ax--> · Tests: `task-001 adds` passed\n/);
    assert.match(once, /\[task-002\] exports<!--\/@ax--> \(see the notes\)\n/, 'not written over');
    assert.deepEqual(parseAnnotations(once).problems, []);
    const [first] = regions(once);
    assert.equal(evidenceAfter(once, first!), 'Tests: `task-001 adds` passed');
    const twice = setRegionEvidence(once, new Map([['task-001', evidenceText('failed', ['task-001 adds (failed)'])]]));
    assert.match(twice, /adds<!--\/@ax--> · Tests: `task-001 adds` failed\n/);
    assert.equal(
      setRegionEvidence(twice, new Map([['task-001', evidenceText('failed', ['task-001 adds (failed)'])]])),
      twice,
    );
    const blue = setRegionEvidence(twice, new Map([['task-001', evidenceText('untested', [])]]));
    assert.equal(evidenceAfter(blue, regions(blue)[0]!), 'Implemented, no passing test names it.');
  });

  test('a hostile test name stays text: no marker, no tag, one line, backticks fenced', () => {
    const name = 'task-001 `x` <!--/@ax--> <img src=x> <!--@ax:0-1:green:task-009-->\nnext line';
    const text = setRegionEvidence(SPEC, new Map([['task-001', evidenceText('passed', [`${name} (passed)`])]]));
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.deepEqual(
      regions(text).map((r) => r.task),
      ['task-001', 'task-002'],
    );
    assert.equal(text.split('\n').length, SPEC.split('\n').length);
    assert.ok(!text.includes('<!--/@ax--> <img'), text);
  });

  test('many tests are cut, saying how many more', () => {
    const tests = Array.from({ length: 100 }, (_, i) => `task-001 case ${i} (passed)`);
    const e = evidenceText('passed', tests);
    assert.ok(e.length < 700, String(e.length));
    assert.match(e, /and \d+ more$/);
  });
});
