// Builds the production bundles and packs groundwork-<version>.vsix with @vscode/vsce, then
// checks that the VSIX ships only what runs and weighs at most 1 MB, and prints what weighs what
// (compressed, as it downloads). `--install` also installs it into VS Code.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = `groundwork-${pkg.version}.vsix`;
const install = process.argv.includes('--install');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

/** vsce needs Node 22 or later; the machine may have 20, so fall back to Node from npm. */
async function nodeForVsce() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const { ensureNode24 } = await import('./vscode/setupTools.mjs');
  return ensureNode24();
}

/** The most the VSIX may weigh: past it, packaging fails. */
const LIMIT_KB = 1024;

/** Every file in the VSIX, with its size and its size compressed (`unzip -v`). */
function entriesOf(file) {
  const listing = execFileSync('unzip', ['-v', file], { encoding: 'utf8' });
  return [...listing.matchAll(/^\s*(\d+)\s+\S+\s+(\d+)\s+\S+\s+\S+\s+\S+\s+[0-9a-f]{8}\s+(.+)$/gm)].map((m) => ({
    name: m[3],
    size: Number(m[1]),
    compressed: Number(m[2]),
  }));
}

/** What must never be in the VSIX: sources, tests, dependencies, source maps. */
function checkContents(entries) {
  const bad = entries
    .map((e) => e.name)
    .filter((p) => /^extension\/(src|test|webview|node_modules|scripts|\.tools)\//.test(p) || p.endsWith('.map'));
  if (bad.length) {
    console.error(`The VSIX ships files it must not:\n  ${bad.join('\n  ')}\nFix .vscodeignore.`);
    process.exit(1);
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Each folder's weight compressed, then the heaviest files. */
function report(entries) {
  const folders = new Map();
  for (const e of entries) {
    const folder = e.name.match(/^extension\/([^/]+)\//)?.[1] ?? '(the manifest, the readme, package.json…)';
    const f = folders.get(folder) ?? { files: 0, compressed: 0 };
    folders.set(folder, { files: f.files + 1, compressed: f.compressed + e.compressed });
  }
  console.log('compressed, by folder:');
  for (const [folder, f] of [...folders].sort((a, b) => b[1].compressed - a[1].compressed))
    console.log(`  ${kb(f.compressed).padStart(9)}  ${folder} (${f.files} files)`);
  console.log('the heaviest files, compressed (and as they unpack):');
  for (const e of [...entries].sort((a, b) => b.compressed - a.compressed).slice(0, 12))
    console.log(`  ${kb(e.compressed).padStart(9)}  ${e.name.replace(/^extension\//, '')} (${kb(e.size)})`);
}

run(process.execPath, ['esbuild.mjs', '--production']);
const node = await nodeForVsce();
run(node, [
  join(root, 'node_modules/@vscode/vsce/vsce'),
  'package',
  '--no-dependencies',
  '--allow-missing-repository',
  '--out',
  vsix,
]);
const entries = entriesOf(join(root, vsix));
checkContents(entries);
console.log('');
report(entries);
const size = statSync(join(root, vsix)).size;
console.log(`\n${vsix}: ${kb(size)}, ${entries.length} files (at most ${LIMIT_KB} KB)`);
if (size > LIMIT_KB * 1024) {
  console.error(`${vsix} weighs more than ${LIMIT_KB} KB: see what weighs most above.`);
  process.exit(1);
}

if (install) {
  const code = spawnSync('code', ['--version'], { encoding: 'utf8' });
  if (code.status === 0) {
    run('code', ['--install-extension', join(root, vsix), '--force']);
    console.log('Installed. Reload VS Code and open the Groundwork view in the activity bar.');
  } else {
    console.log(
      `The \`code\` command is not on PATH, so the VSIX was not installed. Install it from VS Code:\n` +
        `  Extensions view → … menu → Install from VSIX… → ${join(root, vsix)}\n` +
        `or put \`code\` on PATH (Command Palette → "Shell Command: Install 'code' command in PATH") and run\n` +
        `  code --install-extension ${join(root, vsix)}`,
    );
  }
}
