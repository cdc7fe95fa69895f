// Runs every test/unit/**/*.test.ts with Node's test runner (TypeScript through tsx). Arguments
// that are folders (e.g. `test/stress`, as `npm run test:stress` does) run the tests under them
// instead; files run as given; the rest is passed through, e.g.
// `npm run test:unit -- --test-name-pattern=journal`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return find(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const args = process.argv.slice(2);
const explicit = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
const testsIn = (dir) =>
  find(join(root, dir))
    .map((f) => relative(root, f))
    .sort();
const files = (explicit.length ? explicit : ['test/unit']).flatMap((a) => (statSync(resolve(root, a), { throwIfNoEntry: false })?.isDirectory() ? testsIn(a) : [a]));
if (files.length === 0) {
  console.error(`no test files found under ${explicit.join(', ') || 'test/unit'}`);
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...flags, ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
