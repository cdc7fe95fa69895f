// Builds the bundles Groundwork ships: the extension host bundle, the feature bundles it loads on
// first use, the webview bundle and the headless CLI. `--production` minifies and drops source
// maps; `--watch` rebuilds. Prints every bundle's size.
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { featureBundles, mainModules } from './scripts/featureBundles.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: production ? 'none' : 'inline',
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: root,
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
};

/**
 * Heavy libraries are bundles of their own, required by the extension and the CLI when first
 * used (the SDK on the first model call, yaml when roles are loaded): activation neither
 * evaluates nor even parses them.
 */
const LAZY_BUNDLES = { '@anthropic-ai/sdk': 'anthropicSdk.js', yaml: 'yaml.js' };
const sdkAsSeparateBundle = {
  name: 'lazy-libraries-as-separate-bundles',
  setup(build) {
    for (const [pkg, file] of Object.entries(LAZY_BUNDLES)) {
      const filter = new RegExp(`^${pkg.replace(/[/.]/g, '\\$&')}$`);
      build.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
    }
  },
};

/**
 * Features whose code the extension loads the first time they are used (the panel shows them or a
 * command needs them), each a bundle of its own, found from the `src/vscode/<feature>/<name>Feature.ts`
 * files themselves and checked against src/vscode/bundles.ts (scripts/featureBundles.mjs):
 * `import('./discoveryFeature')` in the extension's sources becomes `require('./discovery.js')`, so
 * activation neither evaluates nor parses them.
 */
const LAZY_FEATURES = Object.fromEntries(featureBundles(root).map(({ entry, file }) => [entry, file]));

/**
 * The modules a feature bundle takes from the extension's bundle instead of a copy of its own (a
 * class told apart with `instanceof` must be one class): MAIN_MODULES in src/vscode/bundles.ts.
 */
const MAIN_MODULES = mainModules(root);

/** The file a relative import names, as the TypeScript sources write it (no extension). */
function sourceFile(dir, path) {
  const base = resolve(dir, path);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate).split('\\').join('/');
  }
  return undefined;
}

const featuresAsSeparateBundles = {
  name: 'lazy-features-as-separate-bundles',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      const file = LAZY_FEATURES[sourceFile(args.resolveDir, args.path)];
      return file ? { path: `./${file}`, external: true } : undefined;
    });
  },
};

const modulesFromTheExtensionBundle = {
  name: 'modules-from-the-extension-bundle',
  setup(build) {
    build.onResolve({ filter: /^\.\/extension\.js$/, namespace: 'extension-module' }, () => ({
      path: './extension.js',
      external: true,
    }));
    build.onResolve({ filter: /^\./ }, (args) => {
      const file = sourceFile(args.resolveDir, args.path);
      return file && MAIN_MODULES.includes(file) ? { path: file, namespace: 'extension-module' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'extension-module' }, (args) => ({
      contents: [
        `const extension = require('./extension.js');`,
        `if (!extension.__mainModules) throw new Error('Groundwork: a feature bundle was loaded without dist/extension.js, which it takes ${args.path} from');`,
        `module.exports = extension.__mainModules[${JSON.stringify(args.path)}];`,
      ].join('\n'),
      loader: 'js',
      resolveDir: join(root, 'dist'),
    }));
  },
};

const bundles = [
  {
    name: 'extension',
    entryPoints: [join(root, 'src/vscode/extension.ts')],
    outfile: join(root, 'dist/extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [sdkAsSeparateBundle, featuresAsSeparateBundles],
  },
  ...Object.entries(LAZY_FEATURES).map(([entry, file]) => ({
    name: file.replace(/\.js$/, ''),
    lazyFeature: true,
    entryPoints: [join(root, entry)],
    outfile: join(root, 'dist', file),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [sdkAsSeparateBundle, modulesFromTheExtensionBundle],
  })),
  {
    name: 'webview',
    entryPoints: [join(root, 'webview/main.ts')],
    outfile: join(root, 'dist/webview.js'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    name: 'cli',
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: join(root, 'dist/cli.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [sdkAsSeparateBundle],
  },
  ...Object.entries(LAZY_BUNDLES).map(([pkg, file]) => ({
    name: file.replace(/\.js$/, ''),
    stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: root, loader: 'js' },
    outfile: join(root, 'dist', file),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  })),
];

/** The codicon font the webview's controls draw their icons with, served from dist/. */
async function copyCodicons() {
  const from = join(root, 'node_modules/@vscode/codicons/dist');
  const to = join(root, 'dist/codicons');
  await mkdir(to, { recursive: true });
  await Promise.all(['codicon.css', 'codicon.ttf'].map((f) => copyFile(join(from, f), join(to, f))));
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Every bundle's size; the extension's is what activation loads and parses. */
async function report() {
  const rows = [];
  for (const b of bundles) {
    rows.push([
      b.name,
      b.outfile.slice(root.length + 1),
      (await stat(b.outfile)).size,
      b.lazyFeature ? 'loaded on first use' : b.name === 'extension' ? 'loaded at activation' : '',
    ]);
  }
  const width = Math.max(...rows.map((r) => r[1].length));
  console.log(`bundles (${production ? 'production' : 'development'}):`);
  for (const [name, file, size, note] of rows) {
    console.log(`  ${name.padEnd(13)} ${file.padEnd(width)}  ${kb(size).padStart(9)}  ${note}`.trimEnd());
  }
}

/**
 * A module bundled both in the extension and in a feature bundle is two modules at run time: an
 * error class it declares is then two classes, and `instanceof` fails across them (a StorageError
 * of the window's store would not be one to the core in a feature bundle). Such a module must be
 * taken from the extension's bundle (src/vscode/bundles.ts's MAIN_MODULES); the build stops when it is not.
 */
function checkFeatureBundles(results) {
  const inputs = (i) => new Set(Object.keys(results[i].metafile.inputs));
  const main = inputs(bundles.findIndex((b) => b.name === 'extension'));
  const problems = [];
  for (const entry of Object.keys(LAZY_FEATURES))
    if (main.has(entry)) problems.push(`${entry} is in dist/extension.js: it must be loaded lazily`);
  bundles.forEach((b, i) => {
    if (!b.lazyFeature) return;
    for (const file of inputs(i)) {
      if (!main.has(file) || !file.startsWith('src/')) continue;
      if (/\bclass\s+\w+\s+extends\s+\w*Error\b/.test(readFileSync(join(root, file), 'utf8'))) {
        problems.push(
          `${file} declares an error class and is bundled in both dist/extension.js and dist/${basenameOf(b.outfile)}: list it in MAIN_MODULES of src/vscode/bundles.ts`,
        );
      }
    }
  });
  if (problems.length) throw new Error(`the feature bundles would break instanceof:\n  ${problems.join('\n  ')}`);
}

function basenameOf(path) {
  return path.slice(path.lastIndexOf('/') + 1);
}

async function main() {
  if (!watch) await rm(join(root, 'dist'), { recursive: true, force: true });
  await copyCodicons();
  const options = bundles.map(({ name, lazyFeature, ...o }) => ({ ...common, ...o }));
  if (watch) {
    const contexts = await Promise.all(options.map((o) => esbuild.context(o)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('watching for changes…');
    return;
  }
  const results = await Promise.all(options.map((o) => esbuild.build(o)));
  checkFeatureBundles(results);
  await report();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
