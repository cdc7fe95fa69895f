// The project folder's name when the analyst gives none (the fallback name after three tries,
// docs/build-phases.md), and the numbered folder when the name is taken.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  FALLBACK_PROJECT_NAME,
  freeProjectDir,
  isProjectDirName,
  isProjectName,
  PROJECT_NAME_MAX_CHARS,
  PROJECT_NAME_PATTERN,
  readProjectName,
  projectNameFrom,
  WINDOWS_RESERVED,
} from '../../../src/core/build/projectName';
import { cpuMsSince } from '../../support/cpuTime';

describe('projectNameFrom', () => {
  test("takes up to three telling words of a model's brief's one-line summary", () => {
    const text =
      'IDEA_BRIEF:\nOne-line summary: A price tracker for Bitcoin that alerts on Telegram\nProblem: prices move fast\n';
    assert.equal(projectNameFrom(text), 'price-tracker-bitcoin');
    assert.equal(projectNameFrom('- **One-line summary:** Invoice export\n'), 'invoice-export');
  });

  test('reads a saved idea-brief.md: the line under its One-line summary heading', () => {
    const saved =
      '# Idea Brief: Recipe box\n\n## One-line summary\n\nA recipe box for families.\n\n## Problem\n\nLost recipes.\n';
    assert.equal(projectNameFrom(saved), 'recipe-box-families');
  });

  test("falls back to the Idea Brief heading's title, then to the first line", () => {
    assert.equal(projectNameFrom('# Idea Brief: Habit Coach\n\n## Brief\n\nSomething.'), 'habit-coach');
    assert.equal(projectNameFrom('\n\nBuild me a CLI to rename photos by date\nmore'), 'cli-rename-photos');
  });

  test('keeps filler words when nothing else is left, folds accents and transliterates Cyrillic', () => {
    assert.equal(projectNameFrom('One-line summary: The app'), 'the-app');
    assert.equal(projectNameFrom('One-line summary: Café crème'), 'cafe-creme');
    assert.equal(projectNameFrom('One-line summary: Трекер цен'), 'treker-tsen');
  });

  test('is never empty, never a Windows device name, never hidden', () => {
    assert.equal(projectNameFrom(''), FALLBACK_PROJECT_NAME);
    assert.equal(projectNameFrom('!!! ??? 🎉'), FALLBACK_PROJECT_NAME);
    assert.equal(projectNameFrom('One-line summary: CON'), 'con-project');
    assert.equal(projectNameFrom('One-line summary: nul'), 'nul-project');
    assert.equal(projectNameFrom('...hidden folder'), 'hidden-folder');
    assert.equal(projectNameFrom('../../etc/passwd'), 'etc-passwd');
  });

  test(`stays within ${PROJECT_NAME_MAX_CHARS} characters with long words`, () => {
    const name = projectNameFrom(`One-line summary: ${'a'.repeat(50)} ${'b'.repeat(50)} ${'c'.repeat(50)}`);
    assert.ok(name.length <= PROJECT_NAME_MAX_CHARS, name);
    assert.ok(isProjectName(name), name);
  });

  test('whatever the text, the name is a valid PROJECT_NAME', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const name = projectNameFrom(text);
        return (
          PROJECT_NAME_PATTERN.test(name) &&
          name.length <= PROJECT_NAME_MAX_CHARS &&
          !WINDOWS_RESERVED.test(name) &&
          !name.startsWith('.')
        );
      }),
      { numRuns: 500 },
    );
  });

  test('5 MB on one line is read quickly', () => {
    const started = process.cpuUsage();
    const huge = projectNameFrom(`One-line summary: big ${'x'.repeat(5 * 1024 * 1024)}`);
    assert.match(huge, /^big-x{50,60}$/);
    assert.equal(projectNameFrom(`${' '.repeat(5 * 1024 * 1024)}\nOne-line summary: two`), 'two');
    assert.ok(cpuMsSince(started) < 3000);
  });
});

describe('readProjectName', () => {
  test('accepts a name as written, or after lower-casing and joining words with hyphens', () => {
    assert.deepEqual(readProjectName('price-tracker'), { ok: true, name: 'price-tracker' });
    assert.deepEqual(readProjectName('Price Tracker'), { ok: true, name: 'price-tracker' });
    assert.deepEqual(readProjectName('price_tracker'), { ok: true, name: 'price-tracker' });
  });

  test('refuses the rest with the rule, showing the value safely', () => {
    const refused = readProjectName('bad\u001b[2Jname!');
    assert.equal(refused.ok, false);
    assert.match((refused as { reason: string }).reason, /^PROJECT_NAME "bad\\u001b\[2Jname!" is not 1 to 3 words/);
  });
});

describe('freeProjectDir', () => {
  const takenSet = (names: string[]) => {
    const asked: string[] = [];
    const taken = async (dir: string) => {
      asked.push(dir);
      return names.includes(dir);
    };
    return { taken, asked };
  };

  test('the name itself when its folder is free (missing or empty)', async () => {
    const { taken, asked } = takenSet([]);
    assert.equal(await freeProjectDir('price-tracker', taken), 'price-tracker');
    assert.deepEqual(asked, ['price-tracker']);
  });

  test('-2, -3… when folders hold something, asking in order', async () => {
    const { taken, asked } = takenSet(['price-tracker', 'price-tracker-2']);
    assert.equal(await freeProjectDir('price-tracker', taken), 'price-tracker-3');
    assert.deepEqual(asked, ['price-tracker', 'price-tracker-2', 'price-tracker-3']);
  });

  test('a numbered name stays within 64 characters and never ends in a double hyphen', async () => {
    const long = `${'a'.repeat(31)}-${'b'.repeat(32)}`;
    assert.equal(long.length, 64);
    const { taken } = takenSet([long]);
    const free = await freeProjectDir(long, taken);
    assert.equal(free, `${'a'.repeat(31)}-${'b'.repeat(30)}-2`);
    assert.ok(isProjectDirName(free));
    const edge = `${'a'.repeat(62)}-b`;
    assert.equal(await freeProjectDir(edge, takenSet([edge]).taken), `${'a'.repeat(62)}-2`);
  });

  test('refuses a name that is not a folder name, and gives up after -100', async () => {
    const { taken } = takenSet([]);
    for (const bad of ['', '../x', '.hidden', 'Price', 'con', 'a/b', 'a'.repeat(65)]) {
      await assert.rejects(freeProjectDir(bad, taken), RangeError, bad);
    }
    await assert.rejects(
      freeProjectDir('x', async () => true),
      /Every folder from x to x-100 is taken/,
    );
  });
});
