// The bundles esbuild.mjs makes and which of them holds each module. The lazily loaded feature
// bundles are found from the files themselves: every `src/vscode/<feature>/<name>Feature.ts` becomes
// `dist/<name>.js`, and the list in src/vscode/bundles.ts must name exactly these files (one left out,
// or one listed that is not there, throws, and so fails the build, saying which and what to do).
// Also the modules the other bundles take from the extension's bundle (MAIN_MODULES), and, for the
// bundles loaded after activation, which one holds a module several of them need (planBundles);
// duplicates finds a module that is in two bundles. Tested by test/unit/packaging/bundles.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const LIST = 'src/vscode/bundles.ts';

function featureFiles(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/Feature\.ts$/.test(entry.name)) found.push(path);
    }
  };
  walk('src/vscode');
  return found.sort();
}

/** The strings of one `export const NAME … = [ … ]` or `{ … }` of the list file. */
function listed(text, name) {
  const start = text.search(new RegExp(`export const ${name}\\b`));
  if (start < 0) throw new Error(`${LIST} has no export const ${name}`);
  const body = text.slice(start, text.indexOf(';\n', start));
  return [...body.matchAll(/'(src\/[^']+\.ts)'/g)].map((m) => m[1]);
}

/** `[{ entry: 'src/vscode/x/yFeature.ts', file: 'y.js' }]`, or throws when the list and the tree differ. */
export function featureBundles(root) {
  const text = readFileSync(join(root, LIST), 'utf8');
  const inList = listed(text, 'FEATURE_BUNDLES');
  const onDisk = featureFiles(root);
  const problems = [
    ...onDisk
      .filter((f) => !inList.includes(f))
      .map(
        (f) =>
          `${f} is named as a lazy feature bundle (*Feature.ts) but ${LIST} does not list it in FEATURE_BUNDLES: ` +
          `add it there, or rename the file if it is not a bundle of its own`,
      ),
    ...inList
      .filter((f) => !onDisk.includes(f))
      .map((f) => `${LIST} lists ${f} in FEATURE_BUNDLES, but there is no such file: remove it from the list`),
  ];
  if (problems.length) throw new Error(`the feature bundles do not match ${LIST}:\n  ${problems.join('\n  ')}`);
  return onDisk.map((entry) => ({
    entry,
    file: `${entry.slice(entry.lastIndexOf('/') + 1, -'Feature.ts'.length)}.js`,
  }));
}

/** The source files (repo-relative) the other bundles take from dist/extension.js (MAIN_MODULES). */
export function mainModules(root) {
  return listed(readFileSync(join(root, LIST), 'utf8'), 'MAIN_MODULES');
}

/**
 * Which of the bundles loaded after activation holds each module they need. `reach` maps a module to
 * the entries whose bundle would hold it if each were built on its own: the features and `cli`. A
 * module one entry needs stays in its bundle; one that several need is in one chunk for each set of
 * entries, named after the set (`chunk-brainstorm-discovery-cli`), so that an entry loads the
 * modules it needs and no other, as when it had its own copies (esbuild's rule for splitting), and
 * the CLI loads no chunk that a set without it needs (it may need vscode).
 */
export function planBundles(reach, { cli }) {
  const owner = new Map();
  for (const [module, entries] of reach) {
    const by = new Set(entries);
    if (by.size === 0) throw new Error(`${module} is needed by no entry`);
    if (by.size === 1) owner.set(module, [...by][0]);
    else
      owner.set(module, ['chunk', ...[...by].filter((e) => e !== cli).sort(), ...(by.has(cli) ? [cli] : [])].join('-'));
  }
  return owner;
}

/**
 * What each bundle hands to others: `holds` maps a bundle to the modules it holds, `imports` a module
 * to the modules it imports, and `holderFor(bundle, module)` says which bundle the first takes the
 * module from. A bundle hands over each module it holds that a module of another bundle imports.
 */
export function handedOver(holds, imports, holderFor) {
  const out = new Map();
  for (const [bundle, modules] of holds) {
    for (const from of modules) {
      for (const to of imports.get(from) ?? []) {
        const holder = holderFor(bundle, to);
        if (!holder || holder === bundle) continue;
        if (!out.has(holder)) out.set(holder, new Set());
        out.get(holder).add(to);
      }
    }
  }
  return out;
}

/**
 * The modules more than one bundle holds (`bundles`: bundle → the modules it holds, with their
 * bytes), the most bytes first: `[{ module, bytes, bundles }]`.
 */
export function duplicates(bundles) {
  const seen = new Map();
  for (const [bundle, modules] of Object.entries(bundles)) {
    for (const [module, bytes] of Object.entries(modules)) {
      const at = seen.get(module) ?? { module, bytes: 0, bundles: [] };
      at.bytes = Math.max(at.bytes, bytes);
      at.bundles.push(bundle);
      seen.set(module, at);
    }
  }
  return [...seen.values()].filter((m) => m.bundles.length > 1).sort((a, b) => b.bytes - a.bytes);
}
