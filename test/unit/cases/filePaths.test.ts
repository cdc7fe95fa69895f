import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FILE_PATHS_MAX, extractFilePaths, pathMatches } from '../../../src/core/cases/filePaths';

describe('file paths in a case (the four patterns)', () => {
  const cases: [string, string, string[]][] = [
    ['a backticked path', 'Config lives in `config/app.ts` now', ['config/app.ts']],
    ['a backticked bare name', 'The parser is `parser.py`', ['parser.py']],
    [
      'a src/ path, without the full stop after it',
      'The retry logic in src/http.ts expects exponential backoff.',
      ['src/http.ts'],
    ],
    ['a src/ folder', 'All API routes defined in `src/routes/`', ['src/routes/']],
    ['a dir/file.ext', 'lib/db.go opens one pool per process', ['lib/db.go']],
    ['"in file.ext"', 'The retry logic in http.ts expects backoff', ['http.ts']],
    [
      'several, in order, each once',
      'src/a.ts imports `b/c.tsx`; src/a.ts again, and in d.rs',
      ['src/a.ts', 'b/c.tsx', 'd.rs'],
    ],
    ['a looser match inside a fuller path, once', 'See src/routes/index.ts', ['src/routes/index.ts']],
    ['none in plain prose', 'Tests use vitest, not jest', []],
    ['not a version number', 'Upgrade in 2.5 broke it; we are in v1.2.3', []],
    ['not a URL', 'Docs at https://example.com/guide/setup.html say so', []],
    ['not a path leaving the folder', 'in ../../etc/passwd.txt and in /etc/hosts.txt', []],
    ['not an option for git', 'in --output=x.txt', []],
  ];
  for (const [name, content, expected] of cases) {
    test(name, () => assert.deepEqual(extractFilePaths(content), expected));
  }

  test('at most FILE_PATHS_MAX paths', () => {
    const content = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`).join(' ');
    assert.equal(extractFilePaths(content).length, FILE_PATHS_MAX);
  });

  test('a changed file matches the same path, a file inside a named folder, or a bare name anywhere', () => {
    assert.equal(pathMatches('src/auth.ts', 'src/auth.ts'), true);
    assert.equal(pathMatches('src/routes/users.ts', 'src/routes/'), true);
    assert.equal(pathMatches('lib/http.ts', 'http.ts'), true);
    assert.equal(pathMatches('src/auth.tsx', 'src/auth.ts'), false);
    assert.equal(pathMatches('other/src/auth.ts', 'src/auth.ts'), false);
  });
});
