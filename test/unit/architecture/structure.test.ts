// Habits the code keeps: no source file in src/ or webview/ grows past 400 lines (split it by
// what it does, as docs/ARCHITECTURE.md's feature table does).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { sourceFiles } from './importScan';

const root = join(__dirname, '..', '..', '..');
const MAX_LINES = 400;

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1;
}

describe('file size', () => {
  test(`no file in src/ or webview/ is over ${MAX_LINES} lines`, () => {
    const over = ['src', 'webview']
      .flatMap((d) => sourceFiles(join(root, d)))
      .map((f) => ({ file: relative(root, f), lines: lineCount(readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .sort((a, b) => b.lines - a.lines);
    assert.deepEqual(
      over.map((f) => f.file),
      [],
      `over ${MAX_LINES} lines:\n${over.map((f) => `  ${f.file}: ${f.lines} lines`).join('\n')}`,
    );
  });

  test('lines are counted as wc -l does, and a last line without a newline counts', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a\n'), 1);
    assert.equal(lineCount('a\nb'), 2);
    assert.equal(lineCount('a\n\n'), 2);
  });
});
