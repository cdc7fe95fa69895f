// Builds the bundles Groundwork ships: the extension host bundle, the feature bundles it loads on
// first use, the webview bundle, the headless CLI, and the chunks that hold what several of them
// need, once. `--production` minifies and drops source maps; `--watch` rebuilds. Prints every
// bundle's size, what activation loads, and what the bundles share.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { duplicates, featureBundles, handedOver, mainModules, planBundles } from './scripts/featureBundles.mjs';

const root = dirname(fileURLToPath(import.meta.url));

/** A path relative to the repository, as esbuild's metafile writes it. */
const repoPath = (path) => relative(root, path).split(sep).join('/');

const options = (production) => ({
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: production ? 'none' : 'inline',
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: root,
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
});
const NODE = { platform: 'node', format: 'cjs', target: 'node20' };

/**
 * Heavy libraries are bundles of their own, required by the extension and the CLI when first
 * used (the SDK on the first model call, yaml when roles are loaded): activation neither
 * evaluates nor even parses them.
 *
 * Of the Anthropic SDK only the client and its messages resource ship: the other resources
 * (models, files, skills, the beta API…) are four fifths of its code, and Groundwork calls none of
 * them (AnthropicClient makes `client.messages.create` calls and tells the SDK's errors apart;
 * test/unit/packaging/sharedBundles.test.ts fails if the sources use more). The bundle's exports
 * have the shape of the SDK's own CommonJS entry: the client class, with `default` and the error
 * classes on it.
 */
const ANTHROPIC_CLIENT = [
  `import { BaseAnthropic } from '@anthropic-ai/sdk/client';`,
  `import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';`,
  `export class Anthropic extends BaseAnthropic {`,
  `  messages = new Messages(this);`,
  `}`,
  `Anthropic.default = Anthropic;`,
  `Anthropic.Anthropic = Anthropic;`,
].join('\n');
const LAZY_LIBRARIES = {
  '@anthropic-ai/sdk': {
    file: 'anthropicSdk.js',
    note: 'loaded on the first model call',
    contents: `module.exports = require('lazy-library:anthropic-client').Anthropic;`,
    modules: { 'anthropic-client': ANTHROPIC_CLIENT },
  },
  yaml: {
    file: 'yaml.js',
    note: 'loaded when roles, workflows or build records are read',
    contents: `module.exports = require('yaml');`,
  },
};
const lazyLibraries = {
  name: 'lazy-libraries-as-separate-bundles',
  setup(build) {
    for (const [pkg, { file }] of Object.entries(LAZY_LIBRARIES)) {
      const filter = new RegExp(`^${pkg.replace(/[/.]/g, '\\$&')}$`);
      build.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
    }
  },
};
/** The modules a lazy library's bundle is made of when it is not the package as it is. */
const lazyLibraryModules = {
  name: 'lazy-library-modules',
  setup(build) {
    build.onResolve({ filter: /^lazy-library:/ }, (args) => ({
      path: args.path.slice('lazy-library:'.length),
      namespace: 'lazy-library',
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-library' }, (args) => ({
      contents: Object.values(LAZY_LIBRARIES).find((l) => l.modules?.[args.path]).modules[args.path],
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * Features whose code the extension loads the first time they are used (the panel shows them or a
 * command needs them), each a bundle of its own, found from the `src/vscode/<feature>/<name>Feature.ts`
 * files themselves and checked against src/vscode/bundles.ts (scripts/featureBundles.mjs):
 * `require('./discoveryFeature')` in the extension's sources becomes `require('./discovery.js')`, so
 * activation neither evaluates nor parses them.
 */
const LAZY_FEATURES = Object.fromEntries(featureBundles(root).map(({ entry, file }) => [entry, file]));
const lazyFeatures = {
  name: 'lazy-features-as-separate-bundles',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
      for (const ext of ['', '.ts', '/index.ts']) {
        const file = LAZY_FEATURES[repoPath(join(args.resolveDir, args.path + ext))];
        if (file) return { path: `./${file}`, external: true };
      }
      return undefined;
    });
  },
};

/** The entries, each a bundle (dist/<name>.js) that keeps the modules only it needs. */
const MAIN = 'extension';
const CLI = 'cli';
const ENTRIES = {
  [MAIN]: 'src/vscode/extension.ts',
  ...Object.fromEntries(Object.entries(LAZY_FEATURES).map(([entry, file]) => [file.replace(/\.js$/, ''), entry])),
  [CLI]: 'src/cli/main.ts',
};
/**
 * The modules whose classes must be one (MAIN_MODULES in src/vscode/bundles.ts): the bundles loaded
 * after activation take them from extension.js, whose own they are. The CLI, which has no
 * extension.js, takes them from its copy, chunk-main-cli.js (with what they import).
 */
const MAIN_MODULES = mainModules(root);
const MAIN_CLI_CHUNK = 'chunk-main-cli';

/** Each entry built on its own, not written: what each needs, and which module imports which. */
function analysis(production) {
  return {
    ...options(production),
    ...NODE,
    external: ['vscode'],
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, join(root, entry)])),
    outdir: join(root, 'dist'),
    write: false,
    plugins: [lazyLibraries, lazyFeatures],
  };
}

/**
 * Where each bundle takes each module from, and what each bundle hands to the others:
 * - extension.js: its own copy of all it imports (what it imports with `import()`, the SDK's client
 *   and the role loader, too: parsed at activation, evaluated on first use), tree-shaken to what it
 *   uses, as before the chunks, so that activation loads what it did;
 * - MAIN_MODULES: from extension.js, for every other bundle (in the CLI, from chunk-main-cli.js);
 * - the rest, for the bundles loaded later (the features, the CLI): each module they share in one
 *   bundle (planBundles). A module needs all it imports, whatever its entry uses of it: the bundle
 *   that holds it for others holds all of it.
 * Also what each entry would hold built on its own, for the report.
 */
function plan(metafile) {
  const imports = new Map(
    Object.entries(metafile.inputs).map(([m, i]) => [m, i.imports.filter((x) => !x.external).map((x) => x.path)]),
  );
  const main = new Set(MAIN_MODULES);
  const reach = new Map();
  for (const [name, entry] of Object.entries(ENTRIES)) {
    if (name === MAIN) continue;
    for (const m of closure([entry], imports, main)) reach.set(m, [...(reach.get(m) ?? []), name]);
  }
  const owner = planBundles(reach, { cli: CLI });
  const holderFor = (bundle, module) =>
    bundle === MAIN || bundle === MAIN_CLI_CHUNK ? bundle : main.has(module) ? MAIN : owner.get(module);
  const holds = new Map([
    [MAIN, [...closure([ENTRIES[MAIN]], imports)]],
    [MAIN_CLI_CHUNK, [...closure(MAIN_MODULES, imports)]],
  ]);
  for (const [m, bundle] of owner) holds.set(bundle, [...(holds.get(bundle) ?? []), m]);
  const handed = handedOver(holds, imports, holderFor);
  handed.set(MAIN_CLI_CHUNK, new Set(MAIN_MODULES));
  const alone = {};
  for (const output of Object.values(metafile.outputs)) {
    const entry = Object.keys(ENTRIES).find((name) => ENTRIES[name] === output.entryPoint);
    if (entry) alone[entry] = Object.fromEntries(Object.entries(output.inputs).map(([m, i]) => [m, i.bytesInOutput]));
  }
  return { bundles: [...holds.keys()], holderFor, handed, alone };
}

/** These modules, those they import, those these import…, but not past the modules in `stop`. */
function closure(from, imports, stop = new Set()) {
  const seen = new Set();
  const next = from.filter((m) => !stop.has(m));
  while (next.length) {
    const module = next.pop();
    if (seen.has(module)) continue;
    seen.add(module);
    next.push(...(imports.get(module) ?? []).filter((m) => !stop.has(m)));
  }
  return seen;
}

/**
 * A module another bundle holds is taken from it: `import { parseRoundFile } from '../discovery/roundFile'`
 * becomes a read of `require('./chunk-discovery-explorer-cli.js').__modules['src/core/discovery/roundFile.ts']`,
 * and `import { StorageError } from '../storage/storageError'` of extension.js's `__mainModules` (the
 * one StorageError). Each bundle requires each bundle it takes from once.
 */
function takeFromHolders(bundle, holderFor, taken) {
  return {
    name: 'modules-from-the-bundle-that-holds-them',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.namespace !== 'file' || args.pluginData?.resolving) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { resolving: true },
        });
        if (found.errors.length || found.external || found.namespace !== 'file') return undefined;
        const module = repoPath(found.path);
        const holder = holderFor(bundle, module);
        if (!holder || holder === bundle) return undefined;
        taken.push({ bundle, holder, module });
        // Free of side effects: a module that imports it but uses none of it (a constant its own
        // code does not reach) does not load the bundle that holds it.
        return { path: module, namespace: 'held', pluginData: { holder }, sideEffects: false };
      });
      build.onLoad({ filter: /.*/, namespace: 'held' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`holder:${args.pluginData.holder}`)}).__modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
        resolveDir: root,
      }));
      build.onResolve({ filter: /^holder:/, namespace: 'held' }, (args) => ({
        path: args.path.slice('holder:'.length),
        namespace: 'holder',
      }));
      build.onLoad({ filter: /.*/, namespace: 'holder' }, (args) => ({
        contents:
          args.path === MAIN
            ? // In the extension host, extension.js is loaded, and its MAIN_MODULES are the ones; the CLI has none.
              [
                `const loaded = require.cache[require.resolve('./${MAIN}.js')];`,
                `module.exports = loaded ? { __modules: loaded.exports.__mainModules } : require('./${MAIN_CLI_CHUNK}.js');`,
              ].join('\n')
            : `module.exports = require(${JSON.stringify(`./${args.path}.js`)});`,
        loader: 'js',
        resolveDir: root,
      }));
      build.onResolve({ filter: /^\.\//, namespace: 'holder' }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * A bundle's entry when it hands modules to others: its own entry module, if it has one, and
 * `__modules`, each module it hands over by its path, as a CommonJS module that was an ES module
 * (`__esModule`). A module asked for that is not there means dist/ mixes two builds: that is said,
 * rather than "undefined is not a constructor".
 */
function entryOf(bundle, handed) {
  const modules = [...(handed.get(bundle) ?? [])].sort();
  if (!modules.length || bundle === MAIN) return undefined;
  const path = (m) => JSON.stringify(join(root, m));
  return [
    ...(ENTRIES[bundle] ? [`export * from ${path(ENTRIES[bundle])};`] : []),
    ...modules.map((m, i) => `import * as m${i} from ${path(m)};`),
    `const modules = { ${modules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`,
    `for (const m of Object.values(modules)) Object.defineProperty(m, '__esModule', { value: true });`,
    `export const __modules = new Proxy(modules, {`,
    `  get(held, module) {`,
    `    if (typeof module !== 'string' || module in held) return held[module];`,
    `    throw new Error('Groundwork: dist/${bundle}.js does not hold ' + module + ': dist/ mixes two builds; build again');`,
    `  },`,
    `});`,
  ].join('\n');
}

const NOTES = {
  [MAIN]: 'loaded at activation',
  [CLI]: 'the groundwork command',
  [MAIN_CLI_CHUNK]: "the CLI's MAIN_MODULES (the extension host has extension.js's)",
};

/** Every bundle of the extension and the CLI; the chunks' names say which bundles load them. */
function nodeBundles({ bundles, holderFor, handed }, production, outdir, taken) {
  return bundles.map((bundle) => {
    const contents = entryOf(bundle, handed);
    if (!contents && !ENTRIES[bundle]) throw new Error(`dist/${bundle}.js would hold modules no bundle takes`);
    return {
      name: bundle,
      note: NOTES[bundle] ?? (ENTRIES[bundle] ? 'loaded on first use' : ''),
      ...options(production),
      ...NODE,
      external: ['vscode'],
      ...(contents
        ? { stdin: { contents, resolveDir: root, sourcefile: `${bundle}.entry.js`, loader: 'js' } }
        : { entryPoints: [join(root, ENTRIES[bundle])] }),
      outfile: join(outdir, `${bundle}.js`),
      ...(bundle === CLI ? { banner: { js: '#!/usr/bin/env node' } } : {}),
      plugins: [lazyLibraries, lazyFeatures, takeFromHolders(bundle, holderFor, taken)],
    };
  });
}

function otherBundles(production, outdir) {
  return [
    {
      name: 'webview',
      note: "the panel's page",
      ...options(production),
      entryPoints: [join(root, 'webview/main.ts')],
      outfile: join(outdir, 'webview.js'),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
    },
    ...Object.values(LAZY_LIBRARIES).map(({ file, note, contents }) => ({
      name: file.replace(/\.js$/, ''),
      note,
      ...options(production),
      ...NODE,
      stdin: { contents, resolveDir: root, loader: 'js' },
      outfile: join(outdir, file),
      plugins: [lazyLibraryModules],
    })),
  ];
}

/** The codicon font the webview's controls draw their icons with, served from dist/. */
async function copyCodicons(outdir) {
  const from = join(root, 'node_modules/@vscode/codicons/dist');
  const to = join(outdir, 'codicons');
  await mkdir(to, { recursive: true });
  await Promise.all(['codicon.css', 'codicon.ttf'].map((f) => copyFile(join(from, f), join(to, f))));
}

/** The modules a built bundle holds, with their bytes (not the lines that take a module from another bundle). */
function holdings(result) {
  const [output] = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
  return Object.fromEntries(
    Object.entries(output[1].inputs)
      .filter(
        ([m]) => !m.startsWith('held:') && !m.startsWith('holder:') && !m.endsWith('.entry.js') && m !== '<stdin>',
      )
      .map(([m, i]) => [m, i.bytesInOutput]),
  );
}

/**
 * What keeps the bundles honest. No module in two bundles, but for extension.js's own copies and the
 * CLI's copy of MAIN_MODULES: two copies are two classes, and `instanceof` fails across them (a
 * StorageError of the window's store would not be one to the core in a feature bundle). So a MAIN_MODULE
 * is in no other bundle, and a module that declares an error class must not be in extension.js and
 * another bundle the extension host loads either, but be listed in MAIN_MODULES (cli.js runs in a
 * process of its own). No feature in the extension's bundle, nothing that needs `vscode` in a bundle
 * the CLI loads, and every module a bundle takes from another handed over there. `built`:
 * `[{ name, metafile }]`; `source(module)`: its text. Returns what each bundle holds, or throws
 * saying what is wrong.
 */
export function checkBundles(built, { handed = new Map(), taken = [], source = () => '' } = {}) {
  const holds = Object.fromEntries(built.map((b) => [b.name, holdings(b)]));
  const copies = new Set(['webview', MAIN, MAIN_CLI_CHUNK]);
  const others = Object.fromEntries(Object.entries(holds).filter(([name]) => !copies.has(name)));
  const problems = duplicates(others).map(
    (d) => `${d.module} is in ${d.bundles.map((b) => `dist/${b}.js`).join(' and ')}: a module must be in one bundle`,
  );
  for (const module of MAIN_MODULES) {
    const also = Object.keys(others).filter((name) => others[name][module] !== undefined);
    if (also.length)
      problems.push(
        `${module} is a MAIN_MODULE in ${also.map((b) => `dist/${b}.js`).join(', ')}: it must be taken from dist/${MAIN}.js`,
      );
  }
  for (const module of Object.keys(holds[MAIN] ?? {})) {
    const also = Object.keys(others).filter((name) => name !== CLI && others[name][module] !== undefined);
    if (also.length && !MAIN_MODULES.includes(module) && /\bclass\s+\w+\s+extends\s+\w*Error\b/.test(source(module)))
      problems.push(
        `${module} is in dist/${MAIN}.js and ${also.map((b) => `dist/${b}.js`).join(', ')} and declares an error class: ` +
          `list it in MAIN_MODULES of src/vscode/bundles.ts`,
      );
  }
  for (const entry of Object.keys(LAZY_FEATURES))
    if (holds[MAIN]?.[entry] !== undefined) problems.push(`${entry} is in dist/${MAIN}.js: it must be loaded lazily`);
  for (const b of built) {
    const loadedByCli = b.name === CLI || b.name === MAIN_CLI_CHUNK || b.name.endsWith(`-${CLI}`);
    const needsVscode = Object.values(b.metafile.outputs).some((o) => o.imports.some((x) => x.path === 'vscode'));
    if (loadedByCli && needsVscode) problems.push(`dist/${b.name}.js needs vscode, but the CLI loads it`);
  }
  for (const { bundle, holder, module } of taken)
    if (!handed.get(holder)?.has(module))
      problems.push(`dist/${bundle}.js takes ${module} from dist/${holder}.js, which does not hand it over`);
  if (problems.length) throw new Error(`the bundles are wrong:\n  ${problems.join('\n  ')}`);
  return holds;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (bytes) => bytes.reduce((n, b) => n + b, 0);

/**
 * Every bundle's size; what activation loads; what the bundles share, what extension.js repeats of
 * it, and what the entries would repeat without the chunks.
 */
async function report({ bundles, holds, alone, production }) {
  const rows = [];
  for (const b of bundles) rows.push({ ...b, file: `${b.name}.js`, size: (await stat(b.outfile)).size });
  const chunks = rows.filter((r) => r.name.startsWith('chunk-') && r.name !== MAIN_CLI_CHUNK);
  const width = Math.max(...rows.map((r) => r.file.length));
  const line = (r) => `  ${r.file.padEnd(width)}  ${kb(r.size).padStart(9)}  ${r.note ?? ''}`.trimEnd();
  const first = (r) => (r.name === MAIN ? 0 : 1);
  console.log(`bundles (${production ? 'production' : 'development'}), in dist/:`);
  for (const r of rows.filter((r) => !chunks.includes(r)).sort((a, b) => first(a) - first(b))) console.log(line(r));
  console.log(
    `  and ${chunks.length} chunks, ${kb(sum(chunks.map((r) => r.size)))}, each loaded by the bundles its name lists:`,
  );
  for (const r of chunks.sort((a, b) => b.size - a.size)) console.log(line(r));
  const atActivation = rows.filter((r) => r.name === MAIN);
  console.log(
    `at activation: ${atActivation.map((r) => r.file).join(' + ')} = ${kb(sum(atActivation.map((r) => r.size)))}`,
  );
  const shared = duplicates(alone);
  const repeated = sum(shared.map((d) => d.bytes * (d.bundles.length - 1)));
  const node = Object.entries(holds).filter(([name]) => name !== 'webview');
  const elsewhere = (module, except) => node.some(([name, h]) => name !== except && h[module] !== undefined);
  const mainCopies = Object.entries(holds[MAIN]).filter(([m]) => elsewhere(m, MAIN));
  const inWebview = Object.entries(holds.webview).filter(([m]) => elsewhere(m, 'webview'));
  console.log(
    `shared: ${shared.length} modules that several entries need, which each built on its own would repeat ` +
      `(${kb(repeated)}), are in one bundle each; dist/extension.js has its own copy of what activation uses of ` +
      `${mainCopies.length} of them (${kb(sum(mainCopies.map(([, b]) => b)))}), and dist/webview.js, a browser ` +
      `bundle, of ${inWebview.length} (${kb(sum(inWebview.map(([, b]) => b)))}).`,
  );
}

/** Builds the bundles (`which`: all, or only those of the extension and the CLI) and checks them. */
async function buildAll(production, outdir, planned, which = 'all') {
  const taken = [];
  const bundles = [
    ...nodeBundles(planned, production, outdir, taken),
    ...otherBundles(production, outdir).filter((b) => which === 'all' || b.name !== 'webview'),
  ];
  const results = await Promise.all(bundles.map(({ name, note, ...o }) => esbuild.build(o)));
  const holds = checkBundles(
    bundles.map((b, i) => ({ name: b.name, metafile: results[i].metafile })),
    { handed: planned.handed, taken, source: (module) => readFileSync(join(root, module), 'utf8') },
  );
  return { bundles, holds, taken };
}

/**
 * Builds every bundle into `outdir` (dist/ by default); returns the bundles, what each holds, and
 * which module each takes from which other.
 */
export async function build({ production = false, outdir = join(root, 'dist'), quiet = false } = {}) {
  await rm(outdir, { recursive: true, force: true });
  await copyCodicons(outdir);
  const planned = plan((await esbuild.build(analysis(production))).metafile);
  const { bundles, holds, taken } = await buildAll(production, outdir, planned);
  if (!quiet) await report({ bundles, holds, alone: planned.alone, production });
  return { bundles, holds, taken };
}

/**
 * Rebuilds when a source changes: the webview on its own, the rest after the analysis that plans
 * them (an import may have come or gone). A chunk no longer planned stays in dist/ until the next
 * full build.
 */
async function watch() {
  const outdir = join(root, 'dist');
  await copyCodicons(outdir);
  let queue = Promise.resolve();
  const rebuild = (metafile) => {
    queue = queue
      .then(() => buildAll(false, outdir, plan(metafile), 'node'))
      .then(({ bundles }) => console.log(`built ${bundles.length} bundles`))
      .catch((err) => console.error(err instanceof Error ? err.message : err));
  };
  const analysing = analysis(false);
  const rebuilding = {
    name: 'rebuild',
    setup: (b) => b.onEnd((r) => (r.errors.length ? undefined : rebuild(r.metafile))),
  };
  const { name, note, ...webview } = otherBundles(false, outdir).find((b) => b.name === 'webview');
  const contexts = await Promise.all([
    esbuild.context({ ...analysing, plugins: [...analysing.plugins, rebuilding] }),
    esbuild.context(webview),
  ]);
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching for changes…');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  (process.argv.includes('--watch') ? watch() : build({ production: process.argv.includes('--production') })).catch(
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
