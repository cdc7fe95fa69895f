// Writes l10n/bundle.l10n.json: every string the extension shows at run time, keyed by its English
// text (as vscode.l10n / @vscode/l10n expect), from the literal first arguments of l10n.t(…) in
// src/vscode and the values of PANEL_STRINGS (see scripts/l10nStrings.mjs). The translations in
// l10n/bundle.l10n.<lang>.json and package.nls.<lang>.json are written by hand.
//
//   node scripts/l10nExport.mjs           write l10n/bundle.l10n.json, then report the state of
//                                         every translation
//   node scripts/l10nExport.mjs --check   write nothing; exit 1 when l10n/bundle.l10n.json, a
//                                         bundle.l10n.<lang>.json or a package.nls.<lang>.json
//                                         misses a key, has an empty value, or changes the {n}
//                                         placeholders, command links, `code` spans, setting ids
//                                         or .groundwork/ paths. Stale keys are listed only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { LANGUAGES, ROOT, bundlePath, checkTranslations, collectRuntimeStrings, problemCount } from './l10nStrings.mjs';

const check = process.argv.includes('--check');
const rel = (p) => relative(ROOT, p).split('\\').join('/');

if (!check) {
  const { keys } = collectRuntimeStrings();
  const text = JSON.stringify(Object.fromEntries(keys.map((k) => [k, k])), null, 2) + '\n';
  const before = existsSync(bundlePath()) ? readFileSync(bundlePath(), 'utf8') : '';
  mkdirSync(dirname(bundlePath()), { recursive: true });
  writeFileSync(bundlePath(), text);
  console.log(`${rel(bundlePath())}: ${keys.length} strings${before === text ? ' (unchanged)' : ''}`);
}

const { runtime, nls, files } = checkTranslations();
let failed = false;
for (const f of files) {
  const problems = problemCount(f);
  if (problems) failed = true;
  if (!problems && !f.stale.length) continue;
  const hint = f.path === bundlePath() && problems ? ' (run `node scripts/l10nExport.mjs`)' : '';
  console.log(`\n${rel(f.path)}${f.absent ? ' (file missing)' : ''}${hint}`);
  const list = (label, items) => {
    if (!items.length) return;
    console.log(`  ${label} (${items.length}):`);
    for (const k of items) {
      const where = runtime.sources.get(k);
      console.log(`    ${JSON.stringify(k)}${where ? `  ← ${where[0]}` : ''}`);
    }
  };
  if (f.absent) console.log(`  missing: all ${f.missing.length} keys`);
  else list('missing', f.missing);
  list('empty', f.empty);
  list('{n} placeholders differ from the English', f.placeholders);
  list('command links, `code` spans, setting ids or paths differ from the English', f.protected);
  list('stale: no longer in the source (not an error; remove when convenient)', f.stale);
}

if (runtime.templates.length || runtime.dynamic.length) {
  console.log('\nl10n.t calls whose text cannot be extracted (give them a string literal, or translate by hand):');
  for (const t of runtime.templates) console.log(`  ${t.file}:${t.line}  template literal ${t.raw}`);
  for (const d of runtime.dynamic) console.log(`  ${d.file}:${d.line}  ${d.expression}`);
}

console.log(
  `\n${runtime.keys.length} runtime strings, ${Object.keys(nls).length} manifest strings; ` +
    `${LANGUAGES.length} languages besides English (${LANGUAGES.join(', ')}): ${failed ? 'translations incomplete' : 'all translated'}.`,
);
if (check && failed) process.exit(1);
