import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { roleFolderSource } from '../../../src/core/node/roleFiles';
import { ROLE_FILE_MAX_BYTES } from '../../../src/core/roles/roleFile';
import { loadRoles, requireRole, ROLE_FILES_MAX } from '../../../src/core/roles/roleLoader';
import type { LoadedRoles } from '../../../src/core/roles/roleLoader';
import { workspaceRoleSource } from '../../../src/core/roles/workspaceRoleSource';
import { StorageError } from '../../../src/core/storage/storageError';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { MemoryRoleSource, roleText } from './roleFixtures';

const WS = '.groundwork/roles';

function bundled(): MemoryRoleSource {
  return new MemoryRoleSource('roles', {
    'build-qa.md': roleText('build-qa', {
      tools: '[read_file, run_command, sleep]',
      permissionMode: 'workspaceWrite',
      prompt: 'Bundled QA.',
    }),
    'inquisitor-ux.md': roleText('inquisitor-ux', {
      tools: '[read_file, search]',
      permissionMode: 'readOnly',
      prompt: 'Bundled UX.',
    }),
    'README.md': '# Not a role',
  });
}

function summary(loaded: LoadedRoles) {
  return {
    roles: Object.fromEntries([...loaded.roles].map(([name, l]) => [name, `${l.origin} ${l.file}: ${l.role.prompt}`])),
    problems: loaded.problems.map((p) => `${p.severity} ${p.text}`),
  };
}

describe('loadRoles: bundled roles', () => {
  test('loads every role file and skips the README, hidden and non-markdown files', async () => {
    const source = bundled();
    source.files['.draft.md'] = 'anything';
    source.files['notes.txt'] = 'anything';
    assert.deepEqual(summary(await loadRoles(source)), {
      roles: {
        'build-qa': 'bundled roles/build-qa.md: Bundled QA.',
        'inquisitor-ux': 'bundled roles/inquisitor-ux.md: Bundled UX.',
      },
      problems: [],
    });
    assert.deepEqual(
      source.reads.map((r) => r),
      [
        { fileName: 'build-qa.md', maxBytes: ROLE_FILE_MAX_BYTES },
        { fileName: 'inquisitor-ux.md', maxBytes: ROLE_FILE_MAX_BYTES },
      ],
    );
  });

  test('a broken bundled role is an error and is missing; requireRole says why', async () => {
    const source = bundled();
    source.files['build-qa.md'] = roleText('build-qa', { tools: '[rm_rf]' });
    const loaded = await loadRoles(source);
    assert.deepEqual(summary(loaded).problems, [
      'error roles/build-qa.md:4: tools: unknown tool "rm_rf" (known: read_file, write_file, edit_file, list_files, search, run_command, report_discovery, sleep)',
    ]);
    assert.equal(loaded.roles.has('build-qa'), false);
    assert.throws(() => requireRole(loaded, 'build-qa'), {
      message:
        'The role build-qa is not available:\nroles/build-qa.md:4: tools: unknown tool "rm_rf" (known: read_file, write_file, edit_file, list_files, search, run_command, report_discovery, sleep)',
    });
    assert.throws(() => requireRole(loaded, 'build-architect'), {
      message:
        'The role build-architect is not available; no role file defines it. Reinstall Groundwork to restore its roles.',
    });
    assert.equal(requireRole(loaded, 'inquisitor-ux').role.prompt, 'Bundled UX.');
  });

  test('a file name that is not a role name is reported', async () => {
    const source = new MemoryRoleSource('roles', { 'Build QA.md': roleText('Build QA') });
    assert.deepEqual(summary(await loadRoles(source)).problems, [
      "error roles/Build QA.md: the file name is not a role name: use lower-case words joined by '-' (at most 64 characters), then '.md', e.g. build-qa.md",
    ]);
  });

  test('read and list failures are reported against the file or the folder', async () => {
    const source = bundled();
    source.files['build-qa.md'] = new Error('EACCES: permission denied');
    assert.deepEqual(summary(await loadRoles(source)).problems, [
      'error roles/build-qa.md: could not be read: EACCES: permission denied',
    ]);
    const broken = new MemoryRoleSource('roles');
    broken.listError = new Error('EIO');
    assert.deepEqual(summary(await loadRoles(broken)).problems, ['error roles: the folder could not be read: EIO']);
  });

  test('over the size cap: refused by the reader or by the parser, with the same message', async () => {
    const source = bundled();
    source.files['build-qa.md'] = new StorageError('too-large', '/x/roles/build-qa.md', 'too large');
    source.files['inquisitor-ux.md'] = roleText('inquisitor-ux', { prompt: 'x'.repeat(100) });
    const loaded = await loadRoles(source, undefined, { maxFileBytes: 100 });
    const size = Buffer.byteLength(roleText('inquisitor-ux', { prompt: 'x'.repeat(100) }));
    assert.deepEqual(summary(loaded).problems, [
      'error roles/build-qa.md:1: the file is larger than the cap of 100 bytes for a role; a role prompt needs a few KB — shorten it',
      `error roles/inquisitor-ux.md:1: the file is ${size} bytes, over the cap of 100 bytes for a role; a role prompt needs a few KB — shorten it`,
    ]);
  });

  test('more files than the count cap: nothing is read from that folder', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= ROLE_FILES_MAX; i++) files[`role-${i}.md`] = roleText(`role-${i}`);
    const source = new MemoryRoleSource('roles', files);
    assert.deepEqual(summary(await loadRoles(source)), {
      roles: {},
      problems: [
        `error roles: ${ROLE_FILES_MAX + 1} role files; at most ${ROLE_FILES_MAX} are read from one folder, so none was read`,
      ],
    });
    assert.equal(source.reads.length, 0);
  });
});

describe('loadRoles: workspace overrides', () => {
  test('an override wins over the bundled role of the same name; the others stay bundled', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'build-qa.md': roleText('build-qa', {
        tools: '[read_file]',
        permissionMode: 'askBeforeCommands',
        model: 'claude-opus-4-1',
        prompt: 'Our QA.',
      }),
    });
    const loaded = await loadRoles(bundled(), workspace);
    assert.deepEqual(summary(loaded), {
      roles: {
        'build-qa': `workspace ${WS}/build-qa.md: Our QA.`,
        'inquisitor-ux': 'bundled roles/inquisitor-ux.md: Bundled UX.',
      },
      problems: [
        `notice ${WS}/build-qa.md: overrides the bundled build-qa role: it uses model claude-opus-4-1 instead of the fast tier; it replaces the role's prompt`,
      ],
    });
    assert.deepEqual(loaded.roles.get('build-qa')?.role.model, { id: 'claude-opus-4-1' });
  });

  test('an override that changes the model, raises the turns or replaces the prompt is a notice, once per file', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'build-qa.md': roleText('build-qa', {
        tools: '[read_file, run_command, sleep]',
        permissionMode: 'workspaceWrite',
        model: 'complex',
        maxTurns: '50',
        prompt: 'Bundled QA.',
      }),
      'inquisitor-ux.md': roleText('inquisitor-ux', {
        tools: '[read_file, search]',
        permissionMode: 'readOnly',
        prompt: '  Bundled UX.\n',
      }),
    });
    const loaded = await loadRoles(bundled(), workspace);
    assert.deepEqual(
      loaded.problems.map((p) => [p.severity, p.file, p.text]),
      [
        [
          'notice',
          `${WS}/build-qa.md`,
          `${WS}/build-qa.md: overrides the bundled build-qa role: it uses the complex tier instead of the fast tier; it allows up to 50 turns instead of 5`,
        ],
      ],
      'the inquisitor-ux override keeps the model, the turns and (but for surrounding blank space) the prompt: no notice',
    );
    assert.equal(
      loaded.roles.get('build-qa')?.origin,
      'workspace',
      'a notice does not stop the override from being used',
    );
    assert.equal(loaded.roles.get('inquisitor-ux')?.origin, 'workspace');
  });

  test('an override that narrows the tools, lowers the turns or rewords the description says nothing', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'build-qa.md': roleText('build-qa', {
        tools: '[read_file]',
        permissionMode: 'readOnly',
        maxTurns: '2',
        description: 'Our own words.',
        prompt: 'Bundled QA.',
      }),
    });
    const loaded = await loadRoles(bundled(), workspace);
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.roles.get('build-qa')?.origin, 'workspace');
  });

  test('a notice names a model id as the override writes it', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'inquisitor-ux.md': roleText('inquisitor-ux', {
        tools: '[read_file, search]',
        model: 'copilot/gpt-4o',
        prompt: 'Bundled UX.',
      }),
    });
    assert.deepEqual(summary(await loadRoles(bundled(), workspace)).problems, [
      `notice ${WS}/inquisitor-ux.md: overrides the bundled inquisitor-ux role: it uses model copilot/gpt-4o instead of the fast tier`,
    ]);
  });

  test('a broken override is not used: the bundled role is, with warnings naming file, line and field', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'build-qa.md': roleText('build-qa', { tools: '\n  - read_file\n  - rm_rf' }),
    });
    assert.deepEqual(summary(await loadRoles(bundled(), workspace)), {
      roles: {
        'build-qa': 'bundled roles/build-qa.md: Bundled QA.',
        'inquisitor-ux': 'bundled roles/inquisitor-ux.md: Bundled UX.',
      },
      problems: [
        `warning ${WS}/build-qa.md:6: tools: unknown tool "rm_rf" (known: read_file, write_file, edit_file, list_files, search, run_command, report_discovery, sleep)`,
        `warning ${WS}/build-qa.md: this override is not used; the bundled build-qa role is used instead (fix the problems above or delete the file)`,
      ],
    });
  });

  test('an override may not widen the tools or the permission mode', async () => {
    const workspace = new MemoryRoleSource(WS, {
      'inquisitor-ux.md': roleText('inquisitor-ux', {
        tools: '[read_file, write_file, run_command]',
        permissionMode: 'workspaceWrite',
        prompt: 'Write files!',
      }),
      'build-qa.md': roleText('build-qa', {
        tools: '[read_file]',
        permissionMode: 'workspaceWrite',
        prompt: 'Narrower QA.',
      }),
    });
    const widerMode = new MemoryRoleSource(WS, {
      'inquisitor-ux.md': roleText('inquisitor-ux', { tools: '[read_file]', permissionMode: 'askBeforeCommands' }),
    });
    assert.deepEqual(summary(await loadRoles(bundled(), workspace)), {
      roles: {
        'build-qa': `workspace ${WS}/build-qa.md: Narrower QA.`,
        'inquisitor-ux': 'bundled roles/inquisitor-ux.md: Bundled UX.',
      },
      problems: [
        `notice ${WS}/build-qa.md: overrides the bundled build-qa role: it replaces the role's prompt`,
        `warning ${WS}/inquisitor-ux.md: tools: write_file, run_command are not among the bundled role's tools (read_file, search); an override may narrow a role, never widen it, so the bundled inquisitor-ux role is used instead`,
      ],
    });
    assert.deepEqual(summary(await loadRoles(bundled(), widerMode)).problems, [
      `warning ${WS}/inquisitor-ux.md: permissionMode: askBeforeCommands is looser than the bundled role's readOnly (allowed: readOnly); an override may narrow a role, never widen it, so the bundled inquisitor-ux role is used instead`,
    ]);
  });

  test('an override that widens writes: is used, with a notice naming what it adds; a narrower one says nothing', async () => {
    const withScope = bundled();
    withScope.files['build-qa.md'] = roleText('build-qa', {
      tools: '[read_file, write_file]',
      permissionMode: 'workspaceWrite',
      extra: 'writes: [README.md, docs/**]',
      prompt: 'Bundled QA.',
    });
    const override = (writes: string | undefined) =>
      new MemoryRoleSource(WS, {
        'build-qa.md': roleText('build-qa', {
          tools: '[read_file, write_file]',
          permissionMode: 'workspaceWrite',
          ...(writes === undefined ? {} : { extra: `writes: ${writes}` }),
          prompt: 'Bundled QA.',
        }),
      });
    assert.deepEqual(summary(await loadRoles(withScope, override('[README.md, docs/**, src/**]'))).problems, [
      `notice ${WS}/build-qa.md: overrides the bundled build-qa role: it may also write src/** (the bundled role: only README.md, docs/**)`,
    ]);
    assert.deepEqual(summary(await loadRoles(withScope, override(undefined))).problems, [
      `notice ${WS}/build-qa.md: overrides the bundled build-qa role: it may write anywhere instead of only README.md, docs/**`,
    ]);
    const narrower = await loadRoles(withScope, override('[docs/api/**]'));
    assert.deepEqual(summary(narrower).problems, []);
    assert.deepEqual(narrower.roles.get('build-qa')?.role.writes, ['docs/api/**']);
  });

  test('a workspace file that names no bundled role is reported and not used, valid or not', async () => {
    const workspace = new MemoryRoleSource(WS, { 'build-qa2.md': roleText('build-qa2'), 'typo.md': 'no frontmatter' });
    assert.deepEqual(summary(await loadRoles(bundled(), workspace)).problems, [
      `warning ${WS}/typo.md:1: no frontmatter: a role file starts with a line '---', then its fields (name, description, tools, model, permissionMode, maxTurns), then a line '---', then the prompt`,
      `warning ${WS}/typo.md: this file is not used (and no bundled role is named typo)`,
      `warning ${WS}/build-qa2.md: no bundled role is named build-qa2, so this file is not used (a file here overrides the bundled role of the same name: build-qa, inquisitor-ux)`,
    ]);
  });

  test('a workspace folder over the count cap or unreadable is a warning; the bundled roles load', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= 3; i++) files[`role-${i}.md`] = roleText(`role-${i}`);
    const loaded = await loadRoles(bundled(), new MemoryRoleSource(WS, files), { maxFiles: 3 });
    assert.deepEqual(summary(loaded).problems, [
      `warning ${WS}: 4 role files; at most 3 are read from one folder; no role from this folder is used, the bundled roles are`,
    ]);
    assert.equal(loaded.roles.size, 2);
    const unreadable = new MemoryRoleSource(WS);
    unreadable.listError = new Error('Refused to use the folder');
    assert.deepEqual(summary(await loadRoles(bundled(), unreadable)).problems, [
      `warning ${WS}: the folder could not be read: Refused to use the folder; no role from this folder is used, the bundled roles are`,
    ]);
  });
});

describe('role sources on a workspace store and on disk', () => {
  test('workspaceRoleSource reads .groundwork/roles; a missing folder is no override', async () => {
    const ws = new MemoryWorkspace();
    assert.deepEqual(summary(await loadRoles(bundled(), workspaceRoleSource(ws.store))).problems, []);
    ws.fs.writeRaw(
      ws.path('roles/build-qa.md'),
      roleText('build-qa', { tools: '[read_file]', prompt: 'Workspace QA.' }),
    );
    const loaded = await loadRoles(bundled(), workspaceRoleSource(ws.store));
    assert.equal(loaded.roles.get('build-qa')?.origin, 'workspace');
    assert.equal(loaded.roles.get('build-qa')?.file, '.groundwork/roles/build-qa.md');
  });

  test('workspaceRoleSource refuses a symbolic link out of .groundwork (its target would become a prompt)', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw('/home/me/.aws/credentials', roleText('build-qa', { tools: '[read_file]', prompt: 'SECRET' }));
    ws.fs.symlink(ws.path('roles/build-qa.md'), '/home/me/.aws/credentials');
    const loaded = await loadRoles(bundled(), workspaceRoleSource(ws.store));
    assert.equal(loaded.roles.get('build-qa')?.origin, 'bundled');
    const [refused, notUsed, ...rest] = loaded.problems;
    assert.match(
      refused?.text ?? '',
      /^\.groundwork\/roles\/build-qa\.md: could not be read: Refused to use .*symbolic link to '\/home\/me\/\.aws\/credentials'/,
    );
    assert.equal(
      notUsed?.text,
      '.groundwork/roles/build-qa.md: this override is not used; the bundled build-qa role is used instead (fix the problems above or delete the file)',
    );
    assert.deepEqual([refused?.severity, notUsed?.severity, rest], ['warning', 'warning', []]);
  });

  describe('roleFolderSource on disk', () => {
    let dir = '';
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gw-roles-'));
      await writeFile(join(dir, 'build-qa.md'), roleText('build-qa', { prompt: 'On disk.' }));
      await writeFile(join(dir, 'big.md'), roleText('big', { prompt: 'x'.repeat(ROLE_FILE_MAX_BYTES) }));
      await mkdir(join(dir, 'folder.md'));
      await symlink(join(dir, 'build-qa.md'), join(dir, 'linked.md'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    test('reads role files, refuses one over the cap and anything not a regular file', async () => {
      const loaded = await loadRoles(roleFolderSource(dir, 'roles'));
      assert.equal(loaded.roles.get('build-qa')?.role.prompt, 'On disk.');
      const problems = loaded.problems.map((p) => p.text);
      assert.equal(
        problems[0],
        `roles/big.md:1: the file is larger than the cap of ${ROLE_FILE_MAX_BYTES} bytes for a role; a role prompt needs a few KB — shorten it`,
      );
      assert.match(problems[1] ?? '', /^roles\/folder\.md: could not be read: .*not a regular file/);
      // A link inside the bundled folder is read through: the folder is the extension's own.
      assert.equal(
        problems[2],
        'roles/linked.md:2: name: "build-qa" does not match the file name; a role file is named <name>.md, so here name: linked',
      );
      assert.equal(problems.length, 3);
    });

    test('a folder that does not exist has no roles and no problems', async () => {
      assert.deepEqual(summary(await loadRoles(roleFolderSource(join(dir, 'missing'), 'roles'))), {
        roles: {},
        problems: [],
      });
    });
  });
});
