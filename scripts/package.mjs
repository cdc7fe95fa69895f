// Builds the production bundles and packs groundwork-<version>.vsix with @vscode/vsce, then
// checks that the VSIX ships only what runs. `--install` also installs it into VS Code.
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

/** What must never be in the VSIX: sources, tests, dependencies, source maps. */
function checkContents(file) {
  const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const bad = listing.filter(
    (p) => /^extension\/(src|test|webview|node_modules|scripts|\.tools)\//.test(p) || p.endsWith('.map'),
  );
  if (bad.length) {
    console.error(`The VSIX ships files it must not:\n  ${bad.join('\n  ')}\nFix .vscodeignore.`);
    process.exit(1);
  }
  return listing.length;
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
const files = checkContents(join(root, vsix));
console.log(`\n${vsix}: ${(statSync(join(root, vsix)).size / 1024).toFixed(1)} KB, ${files} files`);

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
