// The test writer's COVERAGE: lines (docs/build-phases.md, "Markers"): the format, the lines that
// are ignored and why, and a hostile or huge reply read in linear time with every value capped and
// made visible.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  COVERAGE_IGNORED_MAX,
  COVERAGE_MAX,
  COVERAGE_TEST_MAX_CHARS,
  parseCoverage,
  readCoverage,
} from '../../../src/core/build/coverage';

const REPLY = [
  'TESTS_WRITTEN',
  'TEST_COMMAND: cargo test',
  'TEST_FILES:',
  '- tests/store.rs',
  'COVERAGE: task-001 -> tests/store.rs: task_001_threshold_add_is_listed',
  'COVERAGE: task-003 -> tests/alerts.rs: task_003_one_alert_per_crossing',
  'COVERAGE: REQ-001 -> test/sum.test.js: REQ-001 sum returns 5',
  'UNCOVERED:',
  '- none',
].join('\n');

describe('parseCoverage', () => {
  test('one entry per COVERAGE: line: the requirement, the file and the test as written', () => {
    assert.deepEqual(parseCoverage(REPLY), [
      { requirement: 'task-001', file: 'tests/store.rs', test: 'task_001_threshold_add_is_listed' },
      { requirement: 'task-003', file: 'tests/alerts.rs', test: 'task_003_one_alert_per_crossing' },
      { requirement: 'REQ-001', file: 'test/sum.test.js', test: 'REQ-001 sum returns 5' },
    ]);
    assert.deepEqual(readCoverage(REPLY).ignored, []);
  });

  test('the file may be left out; a test name with ": " in it keeps it; markers may be decorated or fenced', () => {
    const reply = [
      '```',
      'COVERAGE: task-002 -> task-002: rejects an empty name',
      '- **COVERAGE:** task-004 -> src/lib.rs: store::tests::task_004_keeps_utc',
      '> COVERAGE: task-005 → tests/cli.py: test_task_005_exit_code',
      '```',
    ].join('\r\n');
    assert.deepEqual(parseCoverage(reply), [
      { requirement: 'task-002', test: 'task-002: rejects an empty name' },
      { requirement: 'task-004', file: 'src/lib.rs', test: 'store::tests::task_004_keeps_utc' },
      { requirement: 'task-005', file: 'tests/cli.py', test: 'test_task_005_exit_code' },
    ]);
  });

  test('malformed lines are ignored, each with its line and why', () => {
    const reply = [
      'COVERAGE:',
      'COVERAGE: task-001 tests/a.rs: task_001_x',
      'COVERAGE: the store -> tests/a.rs: task_001_x',
      'COVERAGE: task-001 ->',
      'COVERAGE: task-001 -> tests/a.rs: adds_a_threshold',
      'COVERAGE: task-001 -> tests/a.rs: task_0011_other',
      'COVERAGE: task-001 -> tests/a.rs: subtask_001_x',
      'COVERAGE: task-001 -> ../outside.rs: task_001_x',
      'COVERAGE: task-001 -> /abs/a.rs: task_001_x',
      'COVERAGE: task-001 -> tests/a.rs: ',
      'COVERAGE: task-001 -> tests/a.rs: task_001_ok',
      'COVERAGE: task-001 -> tests/a.rs: task_001_ok',
      'coverage: task-001 -> tests/a.rs: task_001_lower_case_marker',
      'The COVERAGE: task-001 -> tests/a.rs: task_001_in_prose',
    ].join('\n');
    const read = readCoverage(reply);
    assert.deepEqual(read.entries, [{ requirement: 'task-001', file: 'tests/a.rs', test: 'task_001_ok' }]);
    assert.deepEqual(
      read.ignored.map((i) => `${i.line}: ${i.reason}`),
      [
        '1: no test after COVERAGE:; write one line per test: COVERAGE: <id> -> <file>: <test>',
        "2: no '->' between the requirement and the test",
        "3: the requirement is not an id such as task-001 (letters, '-', digits), as specs/brief.md numbers them",
        '4: no test after the arrow',
        "5: the test name does not name task-001; every test's name carries the id of the requirement it checks",
        "6: the test name does not name task-001; every test's name carries the id of the requirement it checks",
        "7: the test name does not name task-001; every test's name carries the id of the requirement it checks",
        "8: the test file leads out of the project folder ('..')",
        "9: the test file is not a path relative to the project folder with '/' between names",
        '10: no test name after the file',
        '12: the same test is listed twice for this requirement',
      ],
    );
    assert.equal(read.ignoredCount, 11);
    assert.equal(read.ignored[4]?.text, 'task-001 -> tests/a.rs: adds_a_threshold');
  });

  test('hostile text: control, bidi and escape characters come back visible, never raw', () => {
    const reply =
      'COVERAGE: task-001 -> tests/a.rs: task_001 \u001b[2J\u202eevil\u0007\nCOVERAGE: \u001b]0;x\u0007 -> y';
    const read = readCoverage(reply);
    assert.deepEqual(read.entries, [
      { requirement: 'task-001', file: 'tests/a.rs', test: 'task_001 \\x1b[2J\\u202eevil\\x07' },
    ]);
    assert.equal(read.ignored.length, 1);
    assert.doesNotMatch(JSON.stringify(read), /[\u0000-\u001f\u202e]/);
    assert.match(read.ignored[0]?.text ?? '', /^\\x1b\]0;x\\x07 -> y$/);
    const bad = readCoverage('COVERAGE: task-001 -> te\u0001sts/a.rs: task_001_x');
    assert.equal(bad.ignored[0]?.reason, 'the test file holds a control character');
  });

  test('huge: a long line is cut, lines past the cap are only counted, and it stays fast', () => {
    const long = `COVERAGE: task-001 -> tests/a.rs: task_001_${'x'.repeat(100_000)}`;
    const [entry] = parseCoverage(long);
    assert.equal([...(entry?.test ?? '')].length, COVERAGE_TEST_MAX_CHARS);
    assert.ok(entry?.test.endsWith('…'));

    const many = Array.from(
      { length: COVERAGE_MAX + 100 },
      (_, i) => `COVERAGE: task-${String(i).padStart(4, '0')} -> t/a.rs: task_${String(i).padStart(4, '0')}`,
    ).join('\n');
    const read = readCoverage(many);
    assert.equal(read.entries.length, COVERAGE_MAX);
    assert.equal(read.ignoredCount, 100);
    assert.equal(read.ignored.length, COVERAGE_IGNORED_MAX);

    const started = Date.now();
    const hostile = [
      `COVERAGE: task-001 -> ${'task'.repeat(200_000)}`,
      `COVERAGE: ${'-'.repeat(500_000)}>`,
      `COVERAGE: task-001 -> ${'a/'.repeat(200_000)}: task_001`,
      'COVERAGE: x\n'.repeat(50_000),
    ].join('\n');
    const result = readCoverage(hostile);
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
    assert.equal(result.entries.length, 0);
    assert.ok(result.ignoredCount > 50_000);
    for (const i of result.ignored) assert.ok(i.text.length <= 170);
  });
});
