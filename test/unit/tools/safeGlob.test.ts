import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileGlob, globProblem } from '../../../src/core/tools/safeGlob';
import { contextFor, memoryWorkspace, ok, refused } from './toolHarness';

describe('globs that would backtrack for minutes are refused before they are compiled', () => {
  const cases: { pattern: string; refused: boolean }[] = [
    { pattern: '**/*.ts', refused: false },
    { pattern: 'src/**/test*.?s', refused: false },
    { pattern: '*a*a*b', refused: false },
    { pattern: '*a*a*a*b', refused: true },
    { pattern: '*a*a*a*a*a*a*a*a*a*a*b', refused: true },
    { pattern: '????', refused: true },
    { pattern: `${'x'.repeat(201)}`, refused: true },
  ];
  for (const c of cases) {
    test(`${c.pattern.slice(0, 30)}: ${c.refused ? 'refused' : 'compiled'}`, () => {
      assert.equal(globProblem(c.pattern) !== undefined, c.refused);
      if (c.refused) assert.throws(() => compileGlob(c.pattern), RangeError);
      else assert.equal(typeof compileGlob(c.pattern), 'function');
    });
  }

  const fs = memoryWorkspace({ [`${'a'.repeat(60)}.txt`]: 'x', 'b.txt': 'y' });

  test('list_files says why a pattern is refused', async () => {
    await refused('list_files', { pattern: '*a*a*a*a*a*a*a*a*a*a*b' }, contextFor(fs), /wildcards .* at most 3/);
  });

  test('a files.exclude pattern too complex to match safely is left out, and the listing still answers', async () => {
    const listing = await ok('list_files', {}, contextFor(fs, { exclude: ['*a*a*a*a*a*a*a*a*a*a*b', 'b.txt'] }));
    assert.ok(listing.includes('a'.repeat(60)));
    assert.ok(!listing.includes('b.txt'), 'the simple exclude still applies');
  });
});
