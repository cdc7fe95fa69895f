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

/**
 * src/vscode/<folder>/: `base` (lifecycle, trust, the workspace…), `panel` (the agent panel) and
 * `llm` (the models) are what every feature may use, each only the ones before it; every other
 * folder is a feature, which imports no other feature but these, spelled out: what agent runs,
 * builds and cases share (`agentRuntime`), a build's tries being agent runs, the annotations
 * showing cases. The plan explorer is a feature too; what the others may use of it is its
 * registration API (a feature registers its group and draws its rows with it).
 */
const VSCODE_SHARED = ['base', 'panel', 'llm'];
const VSCODE_FEATURES = readdirSync(join(root, 'src/vscode'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !VSCODE_SHARED.includes(e.name))
  .map((e) => e.name)
  .sort();
const VSCODE_MAY_USE = {
  agentRun: ['agentRuntime'],
  build: ['agentRun', 'agentRuntime'],
  cases: ['agentRuntime'],
  annotations: ['cases'],
};
const EXPLORER_API = ['explorerGroups.ts', 'rowItem.ts', 'rowLook.ts'];
/** The webview's parts, one folder per feature (webview/parts/<feature>/); `panel` holds the controls they all draw with. */
const WEBVIEW_PARTS = readdirSync(join(root, 'webview/parts'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'panel')
  .map((e) => e.name)
  .sort();

const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

/** Zones of import/no-restricted-paths; `type: true` ones let `import type` / `export type` through. */
const ZONES = [
  zone(
    'src/shared',
    ['src/vscode', 'src/cli', 'webview'],
    'src/shared (the panel protocol and strings) imports no other layer.',
  ),
  { ...zone('src/shared', 'src/core', 'src/shared imports only types from src/core.'), type: true },
  zone('src/core', 'src/shared', 'src/core does not import the panel protocol (src/shared): the front ends translate.'),
  zone('src/core', ['src/vscode', 'src/cli', 'webview'], 'src/core runs without VS Code, the CLI or the panel.'),
  zone(
    ['src/core/!(node)/**', 'src/core/*.ts'],
    ['src/core/node/**'],
    'src/core is pure: the Node adapters (src/core/node) are passed in, not imported.',
  ),
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
  ...VSCODE_SHARED.map((shared, i) =>
    zone(
      `src/vscode/${shared}`,
      [...VSCODE_SHARED.slice(i + 1), ...VSCODE_FEATURES].map((f) => `src/vscode/${f}`),
      `src/vscode/${shared} is what features use (${VSCODE_SHARED.slice(0, i + 1).join(' ← ')}): it imports no feature${i + 1 < VSCODE_SHARED.length ? ` nor ${VSCODE_SHARED.slice(i + 1).join(', ')}` : ''}; pass what it needs in.`,
    ),
  ),
  ...VSCODE_FEATURES.map((f) =>
    zone(
      `src/vscode/${f}`,
      VSCODE_FEATURES.filter((g) => g !== f && g !== 'explorer' && !(VSCODE_MAY_USE[f] ?? []).includes(g)).map(
        (g) => `src/vscode/${g}`,
      ),
      `a feature of src/vscode imports no other feature (allowed: ${Object.entries(VSCODE_MAY_USE)
        .map(([a, b]) => `${a} → ${b.join(', ')}`)
        .join('; ')}); what two features share goes to base/, panel/ or llm/, or through Host.services.`,
    ),
  ),
  ...VSCODE_FEATURES.filter((f) => f !== 'explorer').map((f) =>
    zone(
      `src/vscode/${f}`,
      'src/vscode/explorer',
      `a feature uses only the explorer's registration API (${EXPLORER_API.join(', ')}): register a group with Host.explorer.`,
      EXPLORER_API.map((file) => `./${file}`),
    ),
  ),
  zone(
    'src/vscode/*/**',
    ['src/vscode/contributions.ts', 'src/vscode/extension.ts'],
    'a feature imports neither the list of contributions nor the composition root: take the Host types from src/vscode/host.ts.',
  ),
  ...WEBVIEW_PARTS.map((p) =>
    zone(
      `webview/parts/${p}`,
      WEBVIEW_PARTS.filter((q) => q !== p).map((q) => `webview/parts/${q}`),
      'a part of the panel imports no other part; what two parts share goes to webview/parts/panel/ (the controls).',
    ),
  ),
  zone(
    'webview/parts/panel',
    WEBVIEW_PARTS.map((p) => `webview/parts/${p}`),
    'the shared controls import no part.',
  ),
  zone(
    ['webview/app.ts', 'webview/part.ts', 'webview/dom.ts', 'webview/format.ts'],
    'webview/parts',
    'the panel app knows its parts only through the list main.ts gives it.',
  ),
];

/**
 * import/no-restricted-paths, except that declaration-level type-only imports and re-exports
 * (`import type`, `export type … from`) pass: they are erased. `import { type X }` is not erased
 * under verbatimModuleSyntax (the module still loads), so it counts as a value import.
 */
const baseRule = importPlugin.rules['no-restricted-paths'];
const valueImportsRule = {
  meta: {
    ...baseRule.meta,
    docs: { ...baseRule.meta.docs, description: 'import/no-restricted-paths, letting type-only imports through' },
  },
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

const withoutType = ({ type, ...rest }) => rest;
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
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      'test-artifacts/**',
      '.tools/**',
      '.vscode-test/**',
      'test/integration/fixtures/**',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: { babelrc: false, configFile: false, presets: ['@babel/preset-typescript'] },
      },
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
  {
    files: ['src/shared/**/*.ts', 'webview/**/*.ts'],
    rules: { ...NODE_BUILTINS, ...bannedModule('vscode', 'only src/vscode imports vscode.') },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/node/**'],
    rules: {
      ...NODE_BUILTINS,
      ...bannedModule('vscode', 'src/core is pure: no vscode, no Node I/O (that is src/core/node).'),
    },
  },
  {
    files: ['src/core/node/**/*.ts', 'src/cli/**/*.ts'],
    rules: bannedModule('vscode', 'the core and the CLI run without VS Code.'),
  },
];
