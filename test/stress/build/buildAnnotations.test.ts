// Annotated specs, through the built CLI against the scripted model server: the analyst's
// `[task-NNN]` requirements become specs/requirements.md, the architect's pass marks them blue, the
// developer's discovery about task-001 (hostile to a marker) becomes one yellow note right after
// task-001's region, and the final verification marks each requirement by the tests that name it:
// task-001, whose test passed, green; task-002, which no test names, stays blue.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { unescapeNoteContent } from '../../../src/core/annotations/annotationText';
import { ANNOTATED_DISCOVERY, PROJECT } from '../../support/buildScript';
import { scriptedBuild } from './buildHarness';

test('a build: a requirement is green only when a test that names it passed, with the developer’s discovery noted after task-001', async () => {
  const { ws, r } = await scriptedBuild({ annotations: true });
  assert.equal(r.code, 0, r.stderr);
  const stderr = r.stderr;

  const text = await readFile(join(ws, PROJECT, 'specs/requirements.md'), 'utf8');
  const parse = parseAnnotations(text);
  assert.deepEqual(parse.problems, [], text);
  const regions = parse.annotations.filter((a) => a.kind === 'region');
  assert.deepEqual(
    regions.map((r) => r.kind === 'region' && [r.task, r.color]),
    [
      ['task-001', 'green'],
      ['task-002', 'blue'],
    ],
    text,
  );
  const notes = parse.annotations.filter((a) => a.kind === 'discovery');
  assert.equal(notes.length, 1, text);
  const [note] = notes;
  assert.ok(note?.kind === 'discovery');
  assert.equal(note.caseId, 'disc-001');
  assert.equal(note.task, 'task-001');
  assert.equal(
    unescapeNoteContent(text.slice(note.offsets.contentStart, note.offsets.contentEnd)),
    ANNOTATED_DISCOVERY,
  );
  // Right after task-001's region: on the next line, with nothing but the list item's indentation between.
  const first = regions[0];
  assert.ok(first);
  // (After the region, on its line, the evidence the final verification wrote.)
  assert.match(
    text.slice(first.offsets.end, note.offsets.start),
    /^ · Tests: `task-001 sum\(2, 3\) returns 5` passed\n[ \t]*$/,
  );
  assert.match(
    text,
    /\[task-002\] sum is exported from src\/sum\.js \| Acceptance: require works<!--\/@ax--> · Implemented, no passing test names it\.\n/,
  );
  assert.ok(note.offsets.end < (regions[1]?.offsets.start ?? 0), 'before task-002');
  // The case itself is the discovery as reported.
  const cases = await readFile(join(ws, '.groundwork/cases.jsonl'), 'utf8');
  assert.ok(cases.includes(JSON.stringify(ANNOTATED_DISCOVERY).slice(1, -1)));
  assert.match(stderr, /disc-001 is noted after task-001 in specs\/requirements\.md/);

  const [buildId] = await readdir(join(ws, '.groundwork/builds'));
  assert.ok(buildId);
  const log = await readFile(join(ws, '.groundwork/builds', buildId, 'build.log'), 'utf8');
  assert.match(log, /phase architect: requirements marked planned \(blue\)/);
  assert.match(
    log,
    /requirements by their tests: 1 verified \(green\), 0 failed \(red\), 1 with no passing test \(blue\) in specs\/requirements\.md/,
  );
  assert.match(stderr, /task-001: verified \(green\) — task-001 sum\(2, 3\) returns 5 \(passed\)/);
  assert.match(stderr, /task-002: implemented, no passing test names it \(blue\)/);
  const report = await readFile(join(ws, '.groundwork/builds', buildId, 'report.md'), 'utf8');
  assert.match(report, /\| task-001 \| verified \(green\) \| task-001 sum\(2, 3\) returns 5 \(passed\) \|/);
  assert.match(report, /\| task-002 \| implemented, no passing test names it \(blue\) \| – \|/);
  const yaml = await readFile(join(ws, '.groundwork/builds', buildId, 'build.yaml'), 'utf8');
  assert.match(yaml, /final:\n  at: .*\n  passed: true/);
});
