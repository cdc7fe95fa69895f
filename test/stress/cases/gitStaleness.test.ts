// The staleness check against a real git repository in a temp folder: a case that names
// src/auth.ts becomes outdated once a commit changes that file, and names that commit; without a
// repository, or without git, the check is skipped with a reason a person can read.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../support/sha256';
import { tempFolder } from '../../support/tempDirs';
import { CaseStore } from '../../../src/core/cases/caseStore';
import { checkFileStaleness } from '../../../src/core/cases/staleness';
import { GitLogRunner } from '../../../src/core/node/gitLogRunner';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { FakeClock } from '../../support/fakeClock';

const folder = () => tempFolder('gw-git-');

/** git in `dir`, committing at `date` as a fixed author, with no user or system config. */
function git(dir: string, args: string[], date = '2024-01-01T00:00:00Z'): string {
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
  return execFileSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd: dir, env, encoding: 'utf8' },
  ).trim();
}

describe('staleness with real git', () => {
  test('a commit changing src/auth.ts after the case makes it outdated, naming the commit', async () => {
    const dir = await folder();
    git(dir, ['init', '-q']);
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src/auth.ts'), 'export const hash = "bcrypt";\n');
    await writeFile(join(dir, 'README.md'), 'hello\n');
    git(dir, ['add', '.']);
    git(dir, ['commit', '-q', '-m', 'Initial'], '2024-01-01T00:00:00Z');

    const clock = new FakeClock(Date.UTC(2025, 0, 1));
    const store = new CaseStore(openWorkspaceStore(dir), clock, sha256);
    const { case: auth } = await store.add({
      content: 'Passwords are hashed with bcrypt in src/auth.ts',
      scope: 'global',
      impact: 'high',
      category: 'Architecture',
    });
    const { case: readme } = await store.add({
      content: 'The readme is in `docs/intro.md`',
      scope: 'global',
      impact: 'low',
      category: 'Architecture',
    });
    const runner = new GitLogRunner(dir);

    assert.deepEqual(
      await checkFileStaleness(store, runner),
      { findings: [] },
      'the commit before the case does not count',
    );

    await writeFile(join(dir, 'src/auth.ts'), 'export const hash = "argon2id";\n');
    await writeFile(join(dir, 'README.md'), 'changed\n');
    git(dir, ['commit', '-q', '-am', 'Switch to argon2id'], '2025-06-01T12:00:00Z');
    const head = git(dir, ['rev-parse', 'HEAD']);

    const result = await checkFileStaleness(store, runner);
    assert.deepEqual(result, { findings: [{ id: auth.id, commit: head, files: ['src/auth.ts'] }] });
    const stored = await store.get(auth.id);
    assert.deepEqual(
      [stored?.status, stored?.metadata.outdatedCommit, stored?.metadata.outdatedReason],
      ['outdated', head, 'affected files modified'],
    );
    assert.equal((await store.get(readme.id))?.status, 'active');
  });

  test('a workspace inside a repository: paths are the workspace’s own', async () => {
    const dir = await folder();
    git(dir, ['init', '-q']);
    const ws = join(dir, 'app');
    await mkdir(join(ws, 'src'), { recursive: true });
    await writeFile(join(ws, 'src/auth.ts'), 'a\n');
    git(dir, ['add', '.']);
    git(dir, ['commit', '-q', '-m', 'Initial']);
    const store = new CaseStore(openWorkspaceStore(ws), new FakeClock(Date.UTC(2025, 0, 1)), sha256);
    const { case: c } = await store.add({
      content: 'The session check is in `auth.ts`',
      scope: 'global',
      impact: 'low',
      category: 'Architecture',
    });
    await writeFile(join(ws, 'src/auth.ts'), 'b\n');
    git(dir, ['commit', '-q', '-am', 'Change'], '2025-06-01T00:00:00Z');
    const result = await checkFileStaleness(store, new GitLogRunner(ws));
    assert.deepEqual(
      result.findings.map((f) => [f.id, f.commit, f.files]),
      [[c.id, git(dir, ['rev-parse', 'HEAD']), ['auth.ts']]],
    );
  });

  test('not a repository, or no git: skipped with the reason', async () => {
    const dir = await folder();
    const store = new CaseStore(openWorkspaceStore(dir), new FakeClock(Date.UTC(2025, 0, 1)), sha256);
    await store.add({
      content: 'Login lives in src/auth.ts',
      scope: 'global',
      impact: 'low',
      category: 'Architecture',
    });
    const plain = await checkFileStaleness(
      store,
      new GitLogRunner(dir, { env: { PATH: process.env['PATH'] ?? '', GIT_CEILING_DIRECTORIES: tmpdir() } }),
    );
    assert.deepEqual(plain, {
      findings: [],
      skipped: 'The workspace folder is not a git repository, so cases are not checked against commits.',
    });
    const missing = await checkFileStaleness(store, new GitLogRunner(dir, { git: 'groundwork-no-such-git' }));
    assert.deepEqual(missing, {
      findings: [],
      skipped: 'git is not installed (or not on the PATH), so cases are not checked against commits.',
    });
    assert.equal((await store.load()).cases[0]?.status, 'active');
  });
});
