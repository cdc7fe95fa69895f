import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { caseProblems } from '../../../src/core/annotations/annotationCheck';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { make } from '../cases/casesHarness';

const note = (caseId: string, text = 'a note') => `<!--@ax-discovery:task-001:${caseId}-->${text}<!--/@ax-->`;

function lookupOf(...cases: DiscoveryCase[]): (id: string) => DiscoveryCase | undefined {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return (id) => byId.get(id);
}

describe('caseProblems', () => {
  test('no problem for notes whose cases the workspace holds, whatever their status but deleted', () => {
    const text = [note('disc-001'), note('disc-002'), note('disc-003')].join('\n');
    const lookup = lookupOf(
      make('disc-001'),
      make('disc-002', { status: 'outdated' }),
      make('disc-003', { status: 'archived', metadata: { archivedAt: '2025-02-01T09:00:00.000Z' } }),
    );
    assert.deepEqual(caseProblems(parseAnnotations(text), lookup), []);
  });

  test('an unknown id is a problem on its opening marker, with what to do', () => {
    const text = `# Spec\n\nIntro ${note('disc-099')} and more.\n`;
    const parse = parseAnnotations(text);
    const [problem, ...rest] = caseProblems(parse, lookupOf(make('disc-001')));
    assert.equal(rest.length, 0);
    assert.equal(problem?.kind, 'unknownCase');
    assert.equal(problem?.caseId, 'disc-099');
    assert.match(
      problem?.message ?? '',
      /disc-099 is not one of this workspace's discoveries.*correct the case id, or remove this note/,
    );
    const opening = '<!--@ax-discovery:task-001:disc-099-->';
    assert.deepEqual(problem?.range, {
      start: { line: 2, character: 6 },
      end: { line: 2, character: 6 + opening.length },
    });
    assert.equal(text.slice(problem?.offsets.start, problem?.offsets.end), opening);
  });

  test('a deleted case is reported as deleted', () => {
    const parse = parseAnnotations(note('disc-004'));
    const problems = caseProblems(
      parse,
      lookupOf(make('disc-004', { status: 'deleted', metadata: { deletedAt: '2025-02-01T09:00:00.000Z' } })),
    );
    assert.deepEqual(
      problems.map((p) => [p.kind, p.caseId]),
      [['deletedCase', 'disc-004']],
    );
    assert.match(problems[0]?.message ?? '', /disc-004 was deleted.*remove this note/);
  });

  test('regions are never problems; nested notes are checked; the order is the text', () => {
    const text = `<!--@ax:1-9:green:task-001-->A ${note('disc-007')} B<!--/@ax-->\n${note('disc-002')}\n${note('disc-001')}`;
    const problems = caseProblems(parseAnnotations(text), lookupOf(make('disc-001')));
    assert.deepEqual(
      problems.map((p) => [p.caseId, p.range.start.line]),
      [
        ['disc-007', 0],
        ['disc-002', 1],
      ],
    );
  });

  test('an unclosed note is the parser\u2019s problem, not a case problem', () => {
    const parse = parseAnnotations('<!--@ax-discovery:task-001:disc-099-->never closed');
    assert.deepEqual(
      caseProblems(parse, () => undefined),
      [],
    );
    assert.deepEqual(
      parse.problems.map((p) => p.kind),
      ['unclosed'],
    );
  });
});
