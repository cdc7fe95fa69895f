// The layers of docs/ARCHITECTURE.md as lint rules: which folder may import which, resolved to real
// files (import/no-restricted-paths), plus the bare modules each layer must not load (vscode,
// Node's built-ins). `npm run lint`; test/unit/architecture checks the rules catch what they should.
//
// TypeScript 7 (the native compiler) has no JavaScript API, so typescript-eslint cannot parse here:
// Babel's parser reads the .ts files. Only syntax-level rules work without type information.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import babelParser from '@babel/eslint-parser';
import importPlugin from 'eslint-plugin-import';

const root = import.meta.dirname;

const FEATURES = ['discovery', 'brainstorm', 'journal', 'sleep', 'build', 'cases'];
/** Core modules every feature may use; they use no feature. */
const SHARED_CORE = ['plan', 'storage', 'llm', 'prompt', 'tools', 'session', 'audit', 'roles'];
const NOT_CORE_NODE = ['src/core/node/**'];

/**
 * `src/cli/commands/<command>*.ts`: a command and its helpers (brainstorm.ts, brainstormOutput.ts)
 * are one family, named by the file name up to its first capital letter.
 */
const COMMANDS = [
  ...new Set(
    readdirSync(join(root, 'src/cli/commands'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => basename(f, '.ts').replace(/[A-Z].*$/, '')),
  ),
].sort();

const zone = (target, from, message) => ({ target, from, message });

/** Zones of import/no-restricted-paths; `type: true` ones let `import type` / `export type` through. */
const ZONES = [
  zone('src/shared', ['src/vscode', 'src/cli', 'webview'], 'src/shared (the panel protocol and strings) imports no other layer.'),
  { ...zone('src/shared', 'src/core', 'src/shared imports only types from src/core.'), type: true },
  zone('src/core', 'src/shared', 'src/core does not import the panel protocol (src/shared): the front ends translate.'),
  zone('src/core', ['src/vscode', 'src/cli', 'webview'], 'src/core runs without VS Code, the CLI or the panel.'),
  zone(['src/core/!(node)/**', 'src/core/*.ts'], ['src/core/node/**'], 'src/core is pure: the Node adapters (src/core/node) are passed in, not imported.'),
  zone('src/cli', ['src/vscode', 'webview'], 'the CLI runs without VS Code or the panel.'),
  zone('webview', ['src/vscode', 'src/cli'], 'the webview imports src/shared only.'),
  { ...zone('webview', 'src/core', 'the webview imports src/shared only (types from src/core at most).'), type: true },
  ...[...SHARED_CORE.map((m) => `src/core/${m}`), 'src/core/*.ts'].map((target) =>
    zone(
      target,
      FEATURES.map((f) => `src/core/${f}`),
      'shared core modules (plan, storage, llm, prompt, tools, session, …) import no feature module.',
    ),
  ),
  ...FEATURES.map((f) =>
    zone(
      `src/core/${f}`,
      FEATURES.filter((g) => g !== f).map((g) => `src/core/${g}`),
      'a feature imports no other feature; move what both need into a shared core module.',
    ),
  ),
  ...COMMANDS.map((c) =>
    zone(
      `src/cli/commands/${c}*.ts`,
      COMMANDS.filter((d) => d !== c).map((d) => `src/cli/commands/${d}*.ts`),
      'a CLI command imports no other command; move what both need out of src/cli/commands.',
    ),
  ),
  zone('src/vscode/agentPanel.ts', 'src/vscode/*[cC]ommands.ts', 'the panel does not import a command module; pass what it needs in.'),
];

/**
 * import/no-restricted-paths, except that declaration-level type-only imports and re-exports
 * (`import type`, `export type … from`) pass: they are erased. `import { type X }` is not erased
 * under verbatimModuleSyntax (the module still loads), so it counts as a value import.
 */
const baseRule = importPlugin.rules['no-restricted-paths'];
const valueImportsRule = {
  meta: { ...baseRule.meta, docs: { ...baseRule.meta.docs, description: 'import/no-restricted-paths, letting type-only imports through' } },
  create(context) {
    const filtered = Object.create(context, {
      report: {
        value(descriptor) {
          const parent = descriptor.node?.parent;
          if (parent && (parent.importKind === 'type' || parent.exportKind === 'type')) return;
          context.report(descriptor);
        },
      },
    });
    return baseRule.create(filtered);
  },
};

const withoutType = ({ target, from, message }) => ({ target, from, message });
const NODE_BUILTINS = { 'import/no-nodejs-modules': 'error' };
const bannedModule = (name, message) => ({
  'no-restricted-imports': ['error', { paths: [{ name, message }] }],
  // no-restricted-imports sees import and export…from only, not import() or require().
  'no-restricted-syntax': [
    'error',
    { selector: `ImportExpression[source.value='${name}']`, message },
    { selector: `CallExpression[callee.name='require'][arguments.0.value='${name}']`, message },
  ],
});

export default [
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-artifacts/**', '.tools/**', '.vscode-test/**', 'test/integration/fixtures/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: babelParser,
      parserOptions: { requireConfigFile: false, babelOptions: { babelrc: false, configFile: false, presets: ['@babel/preset-typescript'] } },
    },
  },
  {
    files: ['**/*.{ts,mjs,js}'],
    plugins: { import: importPlugin, layers: { rules: { 'no-restricted-paths': valueImportsRule } } },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs'] } } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Every relative import must resolve, or the zones below would not see it. (Packages are
      // left to tsc: this resolver does not read package.json "exports".)
      'import/no-unresolved': ['error', { commonjs: true, ignore: ['^[^./]'] }],
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-self-assign': 'error',
      'no-unsafe-finally': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'import/no-restricted-paths': ['error', { basePath: root, zones: ZONES.filter((z) => !z.type).map(withoutType) }],
      'layers/no-restricted-paths': ['error', { basePath: root, zones: ZONES.filter((z) => z.type).map(withoutType) }],
    },
  },
  // No Node I/O outside src/core/node, the extension and the CLI; no vscode outside src/vscode.
  { files: ['src/shared/**/*.ts', 'webview/**/*.ts'], rules: { ...NODE_BUILTINS, ...bannedModule('vscode', 'only src/vscode imports vscode.') } },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/node/**'],
    rules: { ...NODE_BUILTINS, ...bannedModule('vscode', 'src/core is pure: no vscode, no Node I/O (that is src/core/node).') },
  },
  { files: ['src/core/node/**/*.ts', 'src/cli/**/*.ts'], rules: bannedModule('vscode', 'the core and the CLI run without VS Code.') },
];
