// Every string a user meets must exist in every shipped language: the manifest strings
// (package.nls.<lang>.json) and the runtime strings (l10n/bundle.l10n.<lang>.json), the latter
// re-extracted from the sources here with the same code as scripts/l10nExport.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { PANEL_STRINGS } from '../../../src/shared/panelStrings';

const root = join(__dirname, '..', '..', '..');

type Where = { file: string; line: number };
interface Report {
  missing: string[];
  empty: string[];
  placeholders: string[];
  protected: string[];
  stale: string[];
}
interface L10nStrings {
  LANGUAGES: string[];
  tokenize(text: string): Array<{ type: string; value: string; line: number; substitutions?: boolean }>;
  extractCalls(text: string, file?: string): {
    strings: Array<Where & { text: string }>;
    templates: Array<Where & { raw: string; substitutions: boolean }>;
    dynamic: Array<Where & { expression: string }>;
  };
  extractPanelStrings(text: string): Array<{ key: string; text: string; line: number }>;
  collectRuntimeStrings(root?: string): { keys: string[]; sources: Map<string, string[]>; templates: unknown[]; dynamic: unknown[] };
  checkTranslations(root?: string): {
    runtime: { keys: string[] };
    english: Record<string, string>;
    nls: Record<string, string>;
    files: Array<Report & { path: string; absent: boolean }>;
  };
  compareTranslations(source: Record<string, string>, translated: Record<string, unknown> | undefined): Report;
  placeholders(text: string): string[];
  protectedParts(text: string): { links: string[]; code: string[]; ids: string[]; paths: string[] };
  bundlePath(lang?: string, root?: string): string;
  nlsPath(lang?: string, root?: string): string;
}

let lib: L10nStrings;
before(async () => {
  // A plain ESM script shared with scripts/l10nExport.mjs; typed by the interface above.
  lib = (await import(pathToFileURL(join(root, 'scripts', 'l10nStrings.mjs')).href)) as L10nStrings;
});

const readJson = (path: string): Record<string, string> => JSON.parse(readFileSync(path, 'utf8'));
const ids = (lines: string[]) => (lines.length ? `\n  ${lines.map((l) => JSON.stringify(l)).join('\n  ')}` : '');

describe('manifest strings (package.nls.<lang>.json)', () => {
  test('every language has every key of package.nls.json, non-empty, with the same placeholders, links and code spans', () => {
    const english = readJson(lib.nlsPath());
    assert.ok(Object.keys(english).length > 0);
    for (const lang of lib.LANGUAGES) {
      const r = lib.compareTranslations(english, readJson(lib.nlsPath(lang)));
      assert.deepEqual(r.missing, [], `package.nls.${lang}.json lacks:${ids(r.missing)}`);
      assert.deepEqual(r.empty, [], `package.nls.${lang}.json has empty values for:${ids(r.empty)}`);
      assert.deepEqual(r.placeholders, [], `package.nls.${lang}.json changes the {n} placeholders of:${ids(r.placeholders)}`);
      assert.deepEqual(r.protected, [], `package.nls.${lang}.json changes command links, code spans, ids or paths of:${ids(r.protected)}`);
    }
  });

  test('Brazilian Portuguese ships under both pt-br (what VS Code uses) and pt', () => {
    assert.deepEqual(readJson(lib.nlsPath('pt')), readJson(lib.nlsPath('pt-br')));
    assert.deepEqual(readJson(lib.bundlePath('pt')), readJson(lib.bundlePath('pt-br')));
  });
});

describe('runtime strings (l10n/bundle.l10n.<lang>.json)', () => {
  test('l10n/bundle.l10n.json holds every extracted string (run `node scripts/l10nExport.mjs` when not)', () => {
    const { runtime, files } = lib.checkTranslations(root);
    assert.ok(runtime.keys.length > 0);
    const english = files.find((f) => f.path === lib.bundlePath())!;
    assert.deepEqual(english.missing, [], `l10n/bundle.l10n.json lacks (run node scripts/l10nExport.mjs):${ids(english.missing)}`);
  });

  test('every language translates every extracted string, keeping placeholders, links and code spans', () => {
    const { english } = lib.checkTranslations(root);
    for (const lang of lib.LANGUAGES) {
      const r = lib.compareTranslations(english, readJson(lib.bundlePath(lang)));
      assert.deepEqual(r.missing, [], `bundle.l10n.${lang}.json lacks:${ids(r.missing)}`);
      assert.deepEqual(r.empty, [], `bundle.l10n.${lang}.json has empty values for:${ids(r.empty)}`);
      assert.deepEqual(r.placeholders, [], `bundle.l10n.${lang}.json changes the {n} placeholders of:${ids(r.placeholders)}`);
      assert.deepEqual(r.protected, [], `bundle.l10n.${lang}.json changes links, code spans, ids or paths of:${ids(r.protected)}`);
    }
  });

  test('the extraction sees every PANEL_STRINGS value', () => {
    const { runtime } = lib.checkTranslations(root);
    for (const text of Object.values(PANEL_STRINGS)) assert.ok(runtime.keys.includes(text), `not extracted: ${JSON.stringify(text)}`);
    const parsed = lib.extractPanelStrings(readFileSync(join(root, 'src/shared/panelStrings.ts'), 'utf8'));
    assert.deepEqual(Object.fromEntries(parsed.map((e) => [e.key, e.text])), { ...PANEL_STRINGS });
  });

  test('the keys of l10n/bundle.l10n.json are sorted and map to themselves', () => {
    const english = readJson(lib.bundlePath());
    const keys = Object.keys(english);
    assert.deepEqual(keys, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const k of keys) assert.equal(english[k], k);
  });
});

describe('extraction of l10n.t calls', () => {
  test('literal first arguments, with either quote, escapes, line breaks and concatenation', () => {
    const sample = [
      "vscode.l10n.t('Single {0}', x);",
      'vscode.l10n.t("Double");',
      "vscode.l10n.t('It\\'s escaped');",
      'vscode.l10n.t("Say \\"hi\\"", name);',
      'l10n.t(',
      "  'Across lines',",
      '  a,',
      ');',
      "const { l10n } = vscode; l10n.t('Destructured');",
      "vscode.l10n.t('Joined ' + 'text');",
      "vscode.l10n . t ( 'Spaced' )",
      "vscode.l10n.t('Tab\\tand \\u00e9');",
    ].join('\n');
    const found = lib.extractCalls(sample, 'sample.ts');
    assert.deepEqual(
      found.strings.map((s) => s.text),
      ['Single {0}', 'Double', "It's escaped", 'Say "hi"', 'Across lines', 'Destructured', 'Joined text', 'Spaced', 'Tab\tand é'],
    );
    assert.equal(found.strings[4]!.line, 5);
    assert.deepEqual(found.templates, []);
    assert.deepEqual(found.dynamic, []);
  });

  test('template literals and expressions are reported, not extracted', () => {
    const sample = [
      'vscode.l10n.t(`Plain template`);',
      'vscode.l10n.t(`Hello ${name}`);',
      'vscode.l10n.t(TABLE[key]);',
      "vscode.l10n.t(cond ? 'a' : 'b');",
    ].join('\n');
    const found = lib.extractCalls(sample, 'sample.ts');
    assert.deepEqual(found.strings, []);
    assert.deepEqual(
      found.templates.map((t) => [t.line, t.raw, t.substitutions]),
      [
        [1, '`Plain template`', false],
        [2, '`Hello ${…}`', true],
      ],
    );
    assert.deepEqual(
      found.dynamic.map((d) => d.expression),
      ['TABLE[key]', 'cond?"a":"b"'],
    );
  });

  test('comments, strings and regular expressions do not fool the scan; calls inside ${} count', () => {
    const sample = [
      "// vscode.l10n.t('In a line comment')",
      "/* vscode.l10n.t('In a block comment') */",
      "const s = \"vscode.l10n.t('In a string')\";",
      "const r = /['\"`]/g; const d = a / b / c;",
      "const t = `${n}. ${answer || vscode.l10n.t('(no answer)')}`;",
      "const u = `text with ' quote and // not a comment`; vscode.l10n.t('After the template');",
      "other.t('Not l10n'); translate('Not l10n either');",
    ].join('\n');
    const found = lib.extractCalls(sample, 'sample.ts');
    assert.deepEqual(
      found.strings.map((s) => s.text),
      ['(no answer)', 'After the template'],
    );
  });

  test('PANEL_STRINGS values that are not literals are refused rather than skipped', () => {
    assert.deepEqual(
      lib.extractPanelStrings("export const PANEL_STRINGS = {\n  a: 'A',\n  'b-c': \"B\" + 'C',\n  d:\n    'D',\n} as const;").map((e) => [e.key, e.text]),
      [
        ['a', 'A'],
        ['b-c', 'BC'],
        ['d', 'D'],
      ],
    );
    assert.throws(() => lib.extractPanelStrings('export const PANEL_STRINGS = { a: `A` };'), /not a string literal/);
    assert.throws(() => lib.extractPanelStrings("export const PANEL_STRINGS = { a: 'A' + x };"), /not a plain string literal/);
  });

  test('placeholders and protected parts', () => {
    assert.deepEqual(lib.placeholders('{1} then {0}'), ['{0}', '{1}']);
    const p = lib.protectedParts('Run `groundwork.provider` [Go](command:groundwork.discover), see "groundwork.language" in .groundwork/discoveries.jsonl.');
    assert.deepEqual(p.links, ['command:groundwork.discover']);
    assert.deepEqual(p.code, ['`groundwork.provider`']);
    assert.deepEqual(p.ids, ['groundwork.discover', 'groundwork.language', 'groundwork.provider']);
    assert.deepEqual(p.paths, ['.groundwork/discoveries.jsonl']);
  });

  test('a comparison flags missing, empty, changed and stale entries', () => {
    const source = { 'Hello {0}': 'Hello {0}', 'Run `x`': 'Run `x`', Gone: 'Gone', Empty: 'Empty' };
    const r = lib.compareTranslations(source, { 'Hello {0}': 'Hola', 'Run `x`': 'Ejecute x', Empty: ' ', Old: 'Viejo' });
    assert.deepEqual(r, { missing: ['Gone'], empty: ['Empty'], placeholders: ['Hello {0}'], protected: ['Run `x`'], stale: ['Old'] });
  });
});

describe('a new untranslated string fails the check', () => {
  test('in a copy of the project, a new vscode.l10n.t string is reported missing and --check exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-l10n-'));
    try {
      for (const part of ['src/vscode', 'src/shared', 'l10n', 'scripts/l10nStrings.mjs', 'scripts/l10nExport.mjs']) {
        cpSync(join(root, part), join(dir, part), { recursive: true });
      }
      for (const f of ['package.nls.json', ...lib.LANGUAGES.map((l) => `package.nls.${l}.json`)]) cpSync(join(root, f), join(dir, f));

      // As copied, everything is translated.
      const clean = spawnSync(process.execPath, [join(dir, 'scripts/l10nExport.mjs'), '--check'], { encoding: 'utf8' });
      assert.equal(clean.status, 0, clean.stdout + clean.stderr);

      mkdirSync(join(dir, 'src/vscode/extra'), { recursive: true });
      writeFileSync(join(dir, 'src/vscode/extra/newFeature.ts'), "import * as vscode from 'vscode';\nexport const s = () => vscode.l10n.t('A brand new string {0}', 1);\n");
      const { files } = lib.checkTranslations(dir);
      for (const f of files.filter((f) => f.path.includes('bundle.l10n'))) {
        assert.deepEqual(f.missing, ['A brand new string {0}'], f.path);
      }
      const check = spawnSync(process.execPath, [join(dir, 'scripts/l10nExport.mjs'), '--check'], { encoding: 'utf8' });
      assert.equal(check.status, 1, check.stdout + check.stderr);
      assert.match(check.stdout, /"A brand new string \{0\}"  ← src\/vscode\/extra\/newFeature\.ts:2/);

      // Exporting fixes the English bundle only: the languages still lack it.
      const exported = spawnSync(process.execPath, [join(dir, 'scripts/l10nExport.mjs')], { encoding: 'utf8' });
      assert.equal(exported.status, 0, exported.stdout + exported.stderr);
      assert.equal(readJson(join(dir, 'l10n/bundle.l10n.json'))['A brand new string {0}'], 'A brand new string {0}');
      const after = lib.checkTranslations(dir).files;
      assert.deepEqual(after.find((f) => f.path === lib.bundlePath(undefined, dir))!.missing, []);
      assert.deepEqual(after.find((f) => f.path === lib.bundlePath('de', dir))!.missing, ['A brand new string {0}']);

      // A key left in a bundle after its string went away is listed, not failed.
      const es = readJson(lib.bundlePath('es', dir));
      es['A brand new string {0}'] = 'Una cadena nueva {0}';
      es['Removed from the source'] = 'Quitado';
      writeFileSync(lib.bundlePath('es', dir), JSON.stringify(es));
      const stale = lib.checkTranslations(dir).files.find((f) => f.path === lib.bundlePath('es', dir))!;
      assert.deepEqual(stale.missing, []);
      assert.deepEqual(stale.stale, ['Removed from the source']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
