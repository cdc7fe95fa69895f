// The layers of docs/ARCHITECTURE.md are lint rules (eslint.config.mjs: import/no-restricted-paths
// zones, and the bare modules each layer must not load). Here: the source tree keeps them; and, on
// a small tree of its own with a copy of the same config, each kind of forbidden import is caught,
// in every syntax, while the allowed ones pass.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..', '..');

/** The files the fixtures import (each one `export const x = 1;`), as repo-relative paths. */
const TREE = [
  'src/core/clock.ts',
  'src/core/journal/journal.ts',
  'src/core/discovery/roundFile.ts',
  'src/core/brainstorm/brainstormTypes.ts',
  'src/core/sleep/sleepLog.ts',
  'src/core/storage/workspaceStore.ts',
  'src/core/node/openWorkspace.ts',
  'src/shared/protocol.ts',
  'src/vscode/extension.ts',
  'src/vscode/agentPanel.ts',
  'src/vscode/brainstormCommands.ts',
  'src/vscode/commands.ts',
  'src/vscode/panelState.ts',
  'src/cli/runCli.ts',
  'src/cli/cliTypes.ts',
  'src/cli/commandTable.ts',
  'src/cli/commands/journal.ts',
  'src/cli/commands/sleep.ts',
  'webview/main.ts',
];

let fixture: string;
let eslint: ESLint;
before(() => {
  fixture = mkdtempSync(join(tmpdir(), 'gw-layers-'));
  copyFileSync(join(root, 'eslint.config.mjs'), join(fixture, 'eslint.config.mjs'));
  symlinkSync(join(root, 'node_modules'), join(fixture, 'node_modules'), 'dir');
  for (const file of TREE) {
    mkdirSync(join(fixture, dirname(file)), { recursive: true });
    writeFileSync(join(fixture, file), 'export const x = 1;\n');
  }
  eslint = new ESLint({ cwd: fixture });
});
after(() => rmSync(fixture, { recursive: true, force: true }));

/** `line:rule` of each problem ESLint reports for `code` as the file `file` of the fixture tree. */
async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(fixture, file) });
  assert.ok(result, file);
  return result.messages.map((m) => `${m.line}:${m.ruleId ?? m.message}`);
}

describe('layer rules', () => {
  test('src/ and webview/ keep the layers of docs/ARCHITECTURE.md', async () => {
    const results = await new ESLint({ cwd: root }).lintFiles(['src', 'webview']);
    const found = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(root.length + 1)}:${m.line}: ${m.message} (${m.ruleId ?? 'parse'})`));
    assert.deepEqual(found, [], found.join('\n'));
  });

  test('vscode and Node built-ins: in every import syntax, and only where they are banned', async () => {
    assert.deepEqual(await errors('src/core/fixture.ts', "import * as vscode from 'vscode';\n"), ['1:no-restricted-imports']);
    assert.deepEqual(await errors('src/core/fixture.ts', "import { readFile } from 'node:fs/promises';\nimport { join } from 'path';\n"), [
      '1:import/no-nodejs-modules',
      '2:import/no-nodejs-modules',
    ]);
    assert.deepEqual(await errors('src/core/node/fixture.ts', "import { readFile } from 'node:fs/promises';\n"), []);
    assert.deepEqual(await errors('src/core/node/fixture.ts', "export * from 'vscode';\n"), ['1:no-restricted-imports']);
    assert.deepEqual(await errors('src/cli/fixture.ts', "export const m = async () => await import('vscode');\n"), ['1:no-restricted-syntax']);
    assert.deepEqual(await errors('webview/fixture.ts', "const v = require('vscode');\nconst fs = require('fs');\n"), ['1:no-restricted-syntax', '2:import/no-nodejs-modules']);
    assert.deepEqual(await errors('src/shared/fixture.ts', "export const f = () => import('node:os');\n"), ['1:import/no-nodejs-modules']);
    assert.deepEqual(await errors('webview/fixture.ts', "import '../src/shared/protocol';\n// import 'vscode' in a comment is fine\n"), []);
    assert.deepEqual(await errors('src/vscode/fixture.ts', "import * as vscode from 'vscode';\nimport { join } from 'node:path';\n"), []);
  });

  test('folders: the layers, with type-only imports from src/core allowed into src/shared and webview', async () => {
    assert.deepEqual(await errors('src/shared/fixture.ts', "export type { Clock } from '../core/clock';\nimport type { Journal } from '../core/journal/journal';\n"), []);
    assert.deepEqual(await errors('src/shared/fixture.ts', "export { systemClock } from '../core/clock';\n"), ['1:layers/no-restricted-paths']);
    // `import { type X }` still loads the module under verbatimModuleSyntax: not type-only.
    assert.deepEqual(await errors('webview/fixture.ts', "import { type Journal } from '../src/core/journal/journal';\n"), ['1:layers/no-restricted-paths']);
    assert.deepEqual(await errors('webview/fixture.ts', "import type { Journal } from '../src/core/journal/journal';\n"), []);
    assert.deepEqual(await errors('webview/fixture.ts', "import { x } from '../src/vscode/extension';\nimport { y } from '../src/cli/runCli';\n"), [
      '1:import/no-restricted-paths',
      '2:import/no-restricted-paths',
    ]);
    assert.deepEqual(await errors('src/shared/fixture.ts', "import { x } from '../vscode/extension';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/core/fixture.ts', "import { x } from '../shared/protocol';\nimport { y } from '../cli/runCli';\n"), [
      '1:import/no-restricted-paths',
      '2:import/no-restricted-paths',
    ]);
    assert.deepEqual(await errors('src/core/journal/fixture.ts', "import { x } from '../node/openWorkspace';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/core/node/fixture.ts', "import { x } from './openWorkspace';\nimport { y } from '../storage/workspaceStore';\n"), []);
    assert.deepEqual(await errors('src/core/node/fixture.ts', "import { x } from '../../vscode/extension';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/cli/fixture.ts', "import { x } from '../core/node/openWorkspace';\nimport { y } from '../vscode/extension';\n"), [
      '2:import/no-restricted-paths',
    ]);
  });

  test('modules: shared core uses no feature, features use no other feature, commands no other command', async () => {
    assert.deepEqual(await errors('src/core/storage/fixture.ts', "import { x } from '../journal/journal';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/core/fixture.ts', "import { x } from './sleep/sleepLog';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/core/brainstorm/fixture.ts', "import { x } from '../discovery/roundFile';\nimport { y } from '../storage/workspaceStore';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(await errors('src/core/discovery/fixture.ts', "import type { X } from '../brainstorm/brainstormTypes';\n"), ['1:import/no-restricted-paths']);
    assert.deepEqual(await errors('src/cli/commands/journalExtra.ts', "import { x } from './sleep';\nimport { y } from './journal';\nimport { z } from '../cliTypes';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(await errors('src/cli/commandTable.ts', "import { x } from './commands/sleep';\nimport { y } from './commands/journal';\n"), []);
    assert.deepEqual(await errors('src/vscode/agentPanel.ts', "import { x } from './brainstormCommands';\nimport { y } from './commands';\nimport { z } from './panelState';\n"), [
      '1:import/no-restricted-paths',
      '2:import/no-restricted-paths',
    ]);
  });

  test('a relative import that resolves to no file is an error (the zones could not see where it goes)', async () => {
    assert.deepEqual(await errors('src/core/fixture.ts', "import { x } from './no-such-file';\nimport { y } from 'some-package';\n"), ['1:import/no-unresolved']);
  });
});
