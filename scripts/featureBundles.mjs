// The lazily loaded feature bundles, found from the files themselves: every
// `src/vscode/<feature>/<name>Feature.ts` becomes `dist/<name>.js`. The list in src/vscode/bundles.ts
// must name exactly these files: one left out, or one listed that is not there, throws (and so fails
// the build) saying which and what to do. Also the modules the feature bundles take from the
// extension's bundle (MAIN_MODULES). Used by esbuild.mjs; tested by test/unit/packaging/bundles.test.ts.
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

/** The source files (repo-relative) the feature bundles take from dist/extension.js. */
export function mainModules(root) {
  return listed(readFileSync(join(root, LIST), 'utf8'), 'MAIN_MODULES');
}
