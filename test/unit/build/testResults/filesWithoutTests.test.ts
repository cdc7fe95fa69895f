// Node's runner reports a test file whose code exited (process.exit(0)) before its tests ran, or that
// defines none, as a passing test named by its path. It is no test: not counted, but named in the
// tally's `filesWithoutTests`, so that the caller can tell that a file's tests never ran.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FILES_WITHOUT_TESTS_MAX, readTestResults } from '../../../../src/core/build/testResults/testResults';
import { fixture, numbers } from './fixtureTally';

describe('files without tests', () => {
  test('a file that exited before its tests ran is not counted, and is named (TAP and spec, real runs)', () => {
    for (const name of ['node/node20-tap-exit0.txt', 'node/node20-spec-exit0.txt']) {
      const read = readTestResults(fixture(name));
      assert.deepEqual(numbers(read), { ran: 1, passed: 1, failed: 0, skipped: 0 }, name);
      assert.deepEqual(read?.filesWithoutTests, ['/project/test/sum.test.js'], name);
    }
  });

  test('absent when every file ran tests', () => {
    for (const name of [
      'node/node20-tap-task.txt',
      'node/node20-spec-task.txt',
      'jest/mixed.txt',
      'pytest/task-v.txt',
      'cargo/task.txt',
      'go/task-v.txt',
    ]) {
      const read = readTestResults(fixture(name));
      assert.ok(read !== undefined, name);
      assert.equal('filesWithoutTests' in read, false, name);
    }
  });

  test('a file that failed is a failed test, not a file without tests', () => {
    const output = [
      'TAP version 13',
      '# Subtest: test/broken.test.js',
      'not ok 1 - test/broken.test.js',
      '1..1',
      '# tests 1',
      '# pass 0',
      '# fail 1',
      '# duration_ms 12.5',
    ].join('\n');
    const read = readTestResults(output);
    assert.deepEqual(numbers(read), { ran: 1, passed: 0, failed: 1, skipped: 0 });
    assert.equal(read?.filesWithoutTests, undefined);
  });

  test('the names are shown safely, as the runner gave them, at most FILES_WITHOUT_TESTS_MAX', () => {
    const files = Array.from({ length: FILES_WITHOUT_TESTS_MAX + 5 }, (_, i) => `test/f${i}.test.js`);
    files[0] = 'test/\u001b[2Jevil\u202e.test.js';
    const lines = ['TAP version 13', ...files.map((f, i) => `ok ${i + 1} - ${f}`), 'ok 106 - a real test'];
    const summary = ['# tests 106', '# pass 106', '# fail 0', '# duration_ms 9.1'];
    const read = readTestResults([...lines, '1..106', ...summary].join('\n'));
    assert.deepEqual(numbers(read), { ran: 1, passed: 1, failed: 0, skipped: 0 });
    assert.equal(read?.filesWithoutTests?.length, FILES_WITHOUT_TESTS_MAX);
    assert.equal(read.filesWithoutTests[1], 'test/f1.test.js');
    assert.doesNotMatch(read.filesWithoutTests[0] ?? '', /[\u001b\u202e]/);
    assert.equal(read.complete, true);
  });

  test('with runs of several commands, the files of each', () => {
    const read = readTestResults(`${fixture('node/node20-tap-exit0.txt')}\n${fixture('node/node20-tap-exit0.txt')}`);
    assert.equal(read?.ran, 2);
    assert.deepEqual(read.filesWithoutTests, ['/project/test/sum.test.js', '/project/test/sum.test.js']);
  });
});
