// Habits the code keeps: no source file in src/ or webview/ grows past 400 lines as Prettier prints
// it at printWidth 120 (npm test checks the formatting, so the lines counted here are those), and
// one that does is split by what it does (docs/ARCHITECTURE.md).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { sourceFiles } from './importScan';

const root = join(__dirname, '..', '..', '..');
const MAX_LINES = 400;
const PRINT_WIDTH = 120;

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1;
}

/** The files under `base`'s src/ and webview/ over MAX_LINES, longest first. */
function oversized(base: string): { file: string; lines: number }[] {
  return ['src', 'webview']
    .flatMap((d) => sourceFiles(join(base, d)))
    .map((f) => ({ file: relative(base, f), lines: lineCount(readFileSync(f, 'utf8')) }))
    .filter((f) => f.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines);
}

describe('file size', () => {
  test(`the lines are Prettier's at printWidth ${PRINT_WIDTH}`, () => {
    const config = JSON.parse(readFileSync(join(root, '.prettierrc.json'), 'utf8'));
    assert.equal(config.printWidth, PRINT_WIDTH);
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    assert.match(scripts.test, /format:check/, 'npm test checks that every file is printed so');
  });

  test(`no file in src/ or webview/ is over ${MAX_LINES} lines`, () => {
    const over = oversized(root);
    assert.deepEqual(
      over.map((f) => f.file),
      [],
      `over ${MAX_LINES} lines:\n${over.map((f) => `  ${f.file}: ${f.lines} lines`).join('\n')}`,
    );
  });

  test(`a file of ${MAX_LINES + 1} lines is refused, one of ${MAX_LINES} is not`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-structure-'));
    try {
      mkdirSync(join(dir, 'src/vscode/build'), { recursive: true });
      mkdirSync(join(dir, 'webview'));
      writeFileSync(join(dir, 'src/vscode/build/long.ts'), 'export const x = 1;\n'.repeat(MAX_LINES + 1));
      writeFileSync(join(dir, 'webview/fits.ts'), 'export const x = 1;\n'.repeat(MAX_LINES));
      assert.deepEqual(oversized(dir), [{ file: 'src/vscode/build/long.ts', lines: MAX_LINES + 1 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('lines are counted as wc -l does, and a last line without a newline counts', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a\n'), 1);
    assert.equal(lineCount('a\nb'), 2);
    assert.equal(lineCount('a\n\n'), 2);
  });
});
