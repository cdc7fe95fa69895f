// Which files a build's test writer created are test files, by the names and folders the common
// ecosystems give them. Only the path is looked at (root-relative, '/'-separated); whether the file
// is still there is the caller's question. The rules, each on the path as written:
//
// - never under a folder that holds dependencies, build output or tools' state (node_modules,
//   vendor, target, dist, build, out, coverage, __pycache__, venv, any folder starting with '.'),
//   nor under specs/ (the build's own documents);
// - never a data, document or media file (.md, .json, .yaml, .txt, .snap, .png…: DATA_EXTENSIONS)
//   nor a name without an extension (a Makefile, a LICENSE);
// - then a test file when its name is one (JavaScript/TypeScript `*.test.*`, `*.spec.*`; Go, Python,
//   Ruby, Elixir `*_test.*`, Ruby `*_spec.*`, also `*-test.*`, `*-spec.*`; Python `test_*.*`; Java,
//   Kotlin, Scala, C#, PHP, Swift, Groovy `*Test.*`, `*Tests.*`, `*Spec.*`, `*IT.*`, `*TestCase.*`;
//   `test.*`, `tests.*`, `spec.*`; Perl `*.t`, Bats `*.bats`),
// - or when it sits under a test folder (test/, tests/, __tests__/, __test__/, spec/, e2e/,
//   testing/, Maven's src/test/ included) and not in its fixtures (fixtures/, __fixtures__/,
//   __snapshots__/, __mocks__/, testdata/, data/).
//
// A Rust `#[cfg(test)]` module inside src/, or tests added to a file that already existed, are not
// seen here: the check is about files the run created.

/** Folders whose files are never the test writer's tests. */
const NOT_PROJECT_DIRS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'target',
  'dist',
  'build',
  'out',
  'coverage',
  '__pycache__',
  'venv',
  'site-packages',
  'specs',
]);
/** Folders holding tests (compared in lower case). */
const TEST_DIRS = new Set(['test', 'tests', '__tests__', '__test__', 'spec', 'e2e', 'testing']);
/** Folders under a test folder that hold its data, not its tests (lower case). */
const FIXTURE_DIRS = new Set([
  'fixtures',
  '__fixtures__',
  'fixture',
  '__snapshots__',
  '__mocks__',
  'testdata',
  'data',
  'snapshots',
]);
/** Extensions of data, documents and media (lower case): never a test by themselves. */
const DATA_EXTENSIONS = new Set(
  'md markdown mdx rst adoc txt text json jsonc json5 yaml yml toml ini cfg conf env lock csv tsv xml snap svg png jpg jpeg gif webp ico bmp pdf log map zip gz tgz tar db sqlite sqlite3 wasm woff woff2 ttf eot mp3 mp4 wav'.split(
    ' ',
  ),
);
/** Lower-case stems that are a test by themselves (`test.js`, `tests.py`, `spec.rb`). */
const TEST_STEMS = new Set(['test', 'tests', 'spec']);
/** Lower-case inner extensions of `name.test.ts`, `name.spec.js`, `name.test.e2e.ts`. */
const TEST_INFIXES = new Set(['test', 'spec', 'tests', 'e2e']);
/** Extensions that only tests have. */
const TEST_EXTENSIONS = new Set(['t', 'bats']);

/** Whether `path` (root-relative, '/'-separated) looks like a test file; see the rules above. */
export function looksLikeTestFile(path: string): boolean {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  const name = segments.pop();
  if (name === undefined || name.startsWith('.')) return false;
  const dirs = segments.map((s) => s.toLowerCase());
  if (dirs.some((d) => d.startsWith('.') || NOT_PROJECT_DIRS.has(d))) return false;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  const ext = name.slice(dot + 1).toLowerCase();
  if (ext === '' || DATA_EXTENSIONS.has(ext)) return false;
  if (TEST_EXTENSIONS.has(ext) || testName(name.slice(0, dot))) return true;
  const inTests = dirs.findIndex((d) => TEST_DIRS.has(d));
  return inTests >= 0 && !dirs.slice(inTests + 1).some((d) => FIXTURE_DIRS.has(d));
}

/** Whether a file's name without its last extension (`price.test`, `test_store`, `StoreTest`) names a test. */
function testName(stem: string): boolean {
  const lower = stem.toLowerCase();
  if (TEST_STEMS.has(lower)) return true;
  const inner = lower.split('.').slice(1);
  if (inner.some((part) => TEST_INFIXES.has(part))) return true;
  const base = stem.split('.')[0] ?? stem;
  const baseLower = base.toLowerCase();
  if (/^tests?_./.test(baseLower)) return true;
  if (/.[_-](?:test|tests|spec)$/.test(baseLower)) return true;
  // Upper camel case, so that `Contest`, `latest` or `inspect` are not taken for tests.
  return /[a-z0-9](?:Test|Tests|Spec|IT|TestCase)$/.test(base);
}
