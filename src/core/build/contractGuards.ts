// What the test contract (testContract.ts) refuses or allows while a build goes on: a write tool's
// write that would break it, whether Groundwork's own re-run of a frozen command may skip the
// manifest rule, and the frozen test files a runner reports as running no test.
import type { Sha256 } from '../run/changesFile';
import { comparable } from '../tools/writePaths';
import { partHash } from './testContract';
import type { TestContract } from './testContract';

/**
 * Why writing `bytes` to `path` (relative to the project folder, '/'-separated, as the write tools
 * resolved it) would break the contract, or undefined when it would not: a frozen test file is not
 * written at all; a file whose whole text is frozen (a Makefile, a test config, one that was absent)
 * neither; package.json may change except in the scripts and keys frozen; pyproject.toml and
 * Cargo.toml except in their test sections. Names are compared as given: the write tools also call
 * this with the path really written (links resolved).
 */
export function contractRefusal(
  contract: TestContract,
  path: string,
  bytes: Uint8Array,
  hash: Sha256,
): string | undefined {
  // Names compared as the write tools compare them (case, Unicode forms, invisible characters).
  const same = (a: string, b: string) => comparable(a) === comparable(b);
  if (path.split('/').some((segment) => comparable(segment) === 'node_modules'))
    return `${path} is under node_modules, which the package manager writes: a file there could stand in for a test runner. Install packages with the package manager instead.`;
  if (contract.tests.some((t) => same(t.path, path)))
    return `${path} is a test the test writer's phase froze: no later phase may change it. If it is wrong, say so in your answer (the person can accept a change to it).`;
  const entries = contract.entries.filter((e) => same(e.file, path));
  if (entries.length === 0) return undefined;
  const changed = entries
    .filter((e) => partHash(e, bytes, hash) !== e.sha256)
    .map((e) =>
      e.key === ''
        ? e.sha256 === null
          ? 'its creation'
          : 'its text'
        : e.key === 'sections'
          ? 'its test sections'
          : e.key.startsWith('scripts.')
            ? `the script ${e.key.slice('scripts.'.length)}`
            : `its ${e.key.slice('config.'.length)} setting`,
    );
  if (changed.length === 0) return undefined;
  return `this write would change ${changed.join(', ')} of ${path}, which the TEST commands run and the test writer's phase froze. Keep those as they are; if they are wrong, say so in your answer (the person can accept a change).`;
}

/** Flags with which a script runner reaches other folders' manifests (workspace members, --prefix). */
const REACHES_FURTHER = /(^|\s)(--workspaces?|-ws|-w|--prefix|-C|--filter|-F|-r|--recursive|--dir|--cwd)(?=\s|=|$)/;

/**
 * Whether Groundwork's own re-run of the frozen `command` may skip the manifest rule while the
 * contract holds: only when the contract covers every manifest it can reach — not with flags that
 * reach workspace members or other folders, and not in a monorepo root ("workspaces" in its
 * package.json), whose members' scripts the contract does not freeze.
 */
export function contractCovers(contract: TestContract, command: string): boolean {
  if (REACHES_FURTHER.test(command)) return false;
  return !contract.entries.some((e) => e.key === 'config.workspaces' && e.sha256 !== null);
}

/**
 * The frozen test files a runner reported as files that ran no test (`filesWithoutTests`: the
 * code they load ended the process before their tests, or emptied them): such a file's tests did
 * not run, whatever else passed.
 */
export function frozenFilesWithoutTests(
  filesWithoutTests: readonly string[] | undefined,
  frozen: readonly string[],
): string[] {
  const names = (filesWithoutTests ?? []).map((n) => n.replace(/\\/g, '/'));
  return frozen.filter((path) => names.some((n) => n === path || n.endsWith(`/${path}`)));
}
