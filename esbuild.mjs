// Builds the three bundles Groundwork ships: the extension host bundle, the webview bundle
// and the headless CLI. `--production` minifies and drops source maps; `--watch` rebuilds.
import * as esbuild from 'esbuild';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const bundles = [
  {
    name: 'extension',
    entryPoints: [join(root, 'src/vscode/extension.ts')],
    outfile: join(root, 'dist/extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [sdkAsSeparateBundle],
  },
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
    name: file.replace(/\.js$/, ""),
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

async function report() {
  const rows = [];
  for (const b of bundles) {
    rows.push([b.name, b.outfile.slice(root.length + 1), (await stat(b.outfile)).size]);
  }
  const width = Math.max(...rows.map((r) => r[1].length));
  console.log(`bundles (${production ? 'production' : 'development'}):`);
  for (const [name, file, size] of rows) {
    console.log(`  ${name.padEnd(13)} ${file.padEnd(width)}  ${kb(size).padStart(9)}`);
  }
}

async function main() {
  if (!watch) await rm(join(root, 'dist'), { recursive: true, force: true });
  await copyCodicons();
  if (watch) {
    const contexts = await Promise.all(bundles.map(({ name, ...o }) => esbuild.context({ ...common, ...o })));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('watching for changes…');
    return;
  }
  await Promise.all(bundles.map(({ name, ...o }) => esbuild.build({ ...common, ...o })));
  await report();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
