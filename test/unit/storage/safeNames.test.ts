import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertRelativePath,
  assertSlug,
  checkRelativePath,
  isSlug,
  safeFileName,
  slugify,
  uniqueSlug,
} from '../../../src/core/storage/safeNames';
import { StorageError } from '../../../src/core/storage/storageError';

describe('slugs', () => {
  const cases: [string, boolean][] = [
    ['a', true],
    ['0', true],
    ['my-plan', true],
    ['plan-2', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['', false],
    ['-plan', false],
    ['My-Plan', false],
    ['PLAN', false],
    ['plan_name', false],
    ['plan.md', false],
    ['plan name', false],
    ['../x', false],
    ['café', false],
    ['план', false],
    ['plan\0', false],
    ['plan\n', false],
  ];
  for (const [slug, valid] of cases) {
    test(`${JSON.stringify(slug.length > 20 ? `${slug.slice(0, 8)}…(${slug.length})` : slug)} is ${valid ? 'valid' : 'invalid'}`, () => {
      assert.equal(isSlug(slug), valid);
      if (valid) assert.equal(assertSlug(slug), slug);
      else
        assert.throws(
          () => assertSlug(slug),
          (err: unknown) => err instanceof StorageError && err.code === 'unsafe-path',
        );
    });
  }

  test('an invalid plan name is refused with the rule and a suggestion', () => {
    assert.throws(() => assertSlug('My Plan'), /a–z, 0–9 and '-'.*'my-plan'/);
  });
});

describe('slugify', () => {
  const cases: [string, string][] = [
    ['Hello World', 'hello-world'],
    ['  --Hello,   World!!  ', 'hello-world'],
    ['Café crème brûlée', 'cafe-creme-brulee'],
    ['Straße', 'strasse'],
    ['Ação rápida', 'acao-rapida'],
    ['Привет мир', 'privet-mir'],
    ['日本語', 'plan'],
    ['', 'plan'],
    ['!!!', 'plan'],
    ['con', 'con-plan'],
    ['a/../../etc/passwd', 'a-etc-passwd'],
  ];
  for (const [text, slug] of cases) {
    test(`${JSON.stringify(text)} → ${slug}`, () => {
      assert.equal(slugify(text), slug);
    });
  }

  test('long text is cut to 64 characters without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(30)}`);
    assert.ok(slug.length <= 64);
    assert.ok(isSlug(slug));
    assert.ok(!slug.endsWith('-'));
  });

  test('whatever the text, the result is a slug', () => {
    const samples = ['-', '—', '\0', 'a\u0301', 'Ωμέγα', `${'é'.repeat(100)}`, ' x ', '1'];
    for (const text of samples) assert.ok(isSlug(slugify(text)), JSON.stringify(text));
  });
});

describe('uniqueSlug', () => {
  test('returns the base when free, else the first free -N', () => {
    assert.equal(uniqueSlug('plan', new Set()), 'plan');
    assert.equal(uniqueSlug('plan', new Set(['plan'])), 'plan-2');
    assert.equal(uniqueSlug('plan', new Set(['plan', 'plan-2', 'plan-3'])), 'plan-4');
  });

  test('stays within 64 characters', () => {
    const base = 'a'.repeat(64);
    const taken = new Set([base]);
    for (let i = 0; i < 12; i++) taken.add(uniqueSlug(base, taken));
    for (const slug of taken) assert.ok(isSlug(slug), slug);
    assert.equal(taken.size, 13);
    assert.ok(taken.has(`${'a'.repeat(61)}-10`));
  });

  test('refuses a base that is not a slug', () => {
    assert.throws(() => uniqueSlug('../x', new Set()), StorageError);
  });
});

describe('safeFileName', () => {
  const cases: [string, string][] = [
    ['session-123', 'session-123'],
    ['Session_ABC.v2', 'Session_ABC.v2'],
    ['a/b', 'a-b'],
    ['a\\b', 'a-b'],
    ['../../etc/passwd', '-.-..-etc-passwd'],
    ['.', '-'],
    ['..', '--'],
    ['.hidden', '-hidden'],
    ['trailing.', 'trailing-'],
    ['', 'unnamed'],
    ['nul\0byte', 'nul-byte'],
    ['with space', 'with-space'],
    ['émoji🙂', '-moji--'],
    ['CON', '_CON'],
    ['com1.log', '_com1.log'],
  ];
  for (const [text, name] of cases) {
    test(`${JSON.stringify(text)} → ${JSON.stringify(name)}`, () => {
      assert.equal(safeFileName(text), name);
    });
  }

  test('caps the length and always yields one safe path segment', () => {
    assert.equal(safeFileName('x'.repeat(500)).length, 120);
    for (const text of ['', '.', '..', '/', '\\', '\0', 'a/..', ' '.repeat(300), '../'.repeat(100)]) {
      const name = safeFileName(text);
      assert.ok(name.length > 0 && name.length <= 120);
      assert.deepEqual(checkRelativePath(name), { ok: true, segments: [name] }, JSON.stringify(text));
    }
  });
});

describe('relative paths inside .groundwork', () => {
  const valid = ['cases.jsonl', 'plans/my-plan/idea-brief.md', 'plans/x/.workers/agent.ndjson', '.lock', 'a..b', '...'];
  for (const rel of valid) {
    test(`accepts ${JSON.stringify(rel)}`, () => {
      assert.deepEqual(assertRelativePath(rel), rel.split('/'));
    });
  }

  const refused: [string, RegExp][] = [
    ['../x', /'\.\.\/x'.*'\.\.' segment/],
    ['a/../../x', /'\.\.' segment/],
    ['../.groundwork-evil/x', /'\.\.' segment/],
    ['plans/..', /'\.\.' segment/],
    ['/etc/passwd', /'\/etc\/passwd'.*absolute path/],
    ['C:/Windows/x', /absolute path/],
    ['plans\\x', /backslash/],
    ['..\\x', /backslash/],
    ['plans/x\0.md', /'plans\/x\\x00\.md'.*NUL byte/],
    ['', /empty/],
    ['plans//x', /empty folder name/],
    ['plans/', /empty folder name/],
    ['./x', /'\.' segment/],
  ];
  for (const [rel, message] of refused) {
    test(`refuses ${JSON.stringify(rel)}`, () => {
      assert.throws(
        () => assertRelativePath(rel),
        (err: unknown) => err instanceof StorageError && err.code === 'unsafe-path' && message.test(err.message),
      );
    });
  }

  test('the refusal says what to use instead', () => {
    assert.throws(() => assertRelativePath('../x'), /Refused to use '\.\.\/x'.*Use a path inside \.groundwork/);
  });
});
