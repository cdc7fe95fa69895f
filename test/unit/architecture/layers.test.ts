// The layers of docs/ARCHITECTURE.md are lint rules (eslint.config.mjs: import/no-restricted-paths
// zones, and the bare modules each layer must not load). That the source tree keeps them is what
// `npm run lint` checks (part of `npm test` and `npm run test:fast`; linting the whole tree here
// again took 12 s of the unit run). Here, on a small tree of its own with a copy of the same config,
// each kind of forbidden import is caught, in every syntax, while the allowed ones pass.
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
  'src/vscode/contributions.ts',
  'src/vscode/host.ts',
  'src/vscode/base/lifecycle.ts',
  'src/vscode/panel/agentPanel.ts',
  'src/vscode/llm/modelCommands.ts',
  'src/vscode/agentRuntime/agentRuntime.ts',
  'src/vscode/agentRun/runRows.ts',
  'src/vscode/annotations/annotationsHover.ts',
  'src/vscode/brainstorm/brainstormCommands.ts',
  'src/vscode/build/buildFeature.ts',
  'src/vscode/cases/caseRows.ts',
  'src/vscode/chat/chatFeature.ts',
  'src/vscode/discovery/discoveryController.ts',
  'src/vscode/journal/journalContribution.ts',
  'src/vscode/explorer/explorerGroups.ts',
  'src/vscode/explorer/planExplorer.ts',
  'src/vscode/explorer/rowItem.ts',
  'webview/dom.ts',
  'webview/app.ts',
  'webview/parts/panel/controls.ts',
  'webview/parts/brainstorm/brainstormCard.ts',
  'webview/parts/build/buildPart.ts',
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
  test('vscode and Node built-ins: in every import syntax, and only where they are banned', async () => {
    assert.deepEqual(await errors('src/core/fixture.ts', "import * as vscode from 'vscode';\n"), [
      '1:no-restricted-imports',
    ]);
    assert.deepEqual(
      await errors(
        'src/core/fixture.ts',
        "import { readFile } from 'node:fs/promises';\nimport { join } from 'path';\n",
      ),
      ['1:import/no-nodejs-modules', '2:import/no-nodejs-modules'],
    );
    assert.deepEqual(await errors('src/core/node/fixture.ts', "import { readFile } from 'node:fs/promises';\n"), []);
    assert.deepEqual(await errors('src/core/node/fixture.ts', "export * from 'vscode';\n"), [
      '1:no-restricted-imports',
    ]);
    assert.deepEqual(await errors('src/cli/fixture.ts', "export const m = async () => await import('vscode');\n"), [
      '1:no-restricted-syntax',
    ]);
    assert.deepEqual(await errors('webview/fixture.ts', "const v = require('vscode');\nconst fs = require('fs');\n"), [
      '1:no-restricted-syntax',
      '2:import/no-nodejs-modules',
    ]);
    assert.deepEqual(await errors('src/shared/fixture.ts', "export const f = () => import('node:os');\n"), [
      '1:import/no-nodejs-modules',
    ]);
    assert.deepEqual(
      await errors('webview/fixture.ts', "import '../src/shared/protocol';\n// import 'vscode' in a comment is fine\n"),
      [],
    );
    assert.deepEqual(
      await errors('src/vscode/fixture.ts', "import * as vscode from 'vscode';\nimport { join } from 'node:path';\n"),
      [],
    );
  });

  test('folders: the layers, with type-only imports from src/core allowed into src/shared and webview', async () => {
    assert.deepEqual(
      await errors(
        'src/shared/fixture.ts',
        "export type { Clock } from '../core/clock';\nimport type { Journal } from '../core/journal/journal';\n",
      ),
      [],
    );
    assert.deepEqual(await errors('src/shared/fixture.ts', "export { systemClock } from '../core/clock';\n"), [
      '1:layers/no-restricted-paths',
    ]);
    // `import { type X }` still loads the module under verbatimModuleSyntax: not type-only.
    assert.deepEqual(
      await errors('webview/fixture.ts', "import { type Journal } from '../src/core/journal/journal';\n"),
      ['1:layers/no-restricted-paths'],
    );
    assert.deepEqual(
      await errors('webview/fixture.ts', "import type { Journal } from '../src/core/journal/journal';\n"),
      [],
    );
    assert.deepEqual(
      await errors(
        'webview/fixture.ts',
        "import { x } from '../src/vscode/extension';\nimport { y } from '../src/cli/runCli';\n",
      ),
      ['1:import/no-restricted-paths', '2:import/no-restricted-paths'],
    );
    assert.deepEqual(await errors('src/shared/fixture.ts', "import { x } from '../vscode/extension';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(
      await errors(
        'src/core/fixture.ts',
        "import { x } from '../shared/protocol';\nimport { y } from '../cli/runCli';\n",
      ),
      ['1:import/no-restricted-paths', '2:import/no-restricted-paths'],
    );
    assert.deepEqual(await errors('src/core/journal/fixture.ts', "import { x } from '../node/openWorkspace';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(
      await errors(
        'src/core/node/fixture.ts',
        "import { x } from './openWorkspace';\nimport { y } from '../storage/workspaceStore';\n",
      ),
      [],
    );
    assert.deepEqual(await errors('src/core/node/fixture.ts', "import { x } from '../../vscode/extension';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(
      await errors(
        'src/cli/fixture.ts',
        "import { x } from '../core/node/openWorkspace';\nimport { y } from '../vscode/extension';\n",
      ),
      ['2:import/no-restricted-paths'],
    );
  });

  test('modules: shared core uses no feature, features use no other feature, commands no other command', async () => {
    assert.deepEqual(await errors('src/core/storage/fixture.ts', "import { x } from '../journal/journal';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(await errors('src/core/fixture.ts', "import { x } from './sleep/sleepLog';\n"), [
      '1:import/no-restricted-paths',
    ]);
    assert.deepEqual(
      await errors(
        'src/core/brainstorm/fixture.ts',
        "import { x } from '../discovery/roundFile';\nimport { y } from '../storage/workspaceStore';\n",
      ),
      ['1:import/no-restricted-paths'],
    );
    assert.deepEqual(
      await errors('src/core/discovery/fixture.ts', "import type { X } from '../brainstorm/brainstormTypes';\n"),
      ['1:import/no-restricted-paths'],
    );
    assert.deepEqual(
      await errors(
        'src/cli/commands/journalExtra.ts',
        "import { x } from './sleep';\nimport { y } from './journal';\nimport { z } from '../cliTypes';\n",
      ),
      ['1:import/no-restricted-paths'],
    );
    assert.deepEqual(
      await errors(
        'src/cli/commandTable.ts',
        "import { x } from './commands/sleep';\nimport { y } from './commands/journal';\n",
      ),
      [],
    );
  });

  test('src/vscode: base ← panel ← llm use no feature; a feature uses no other but those spelled out', async () => {
    const Z = '1:import/no-restricted-paths';
    // The shared folders: each only the ones before it, and no feature.
    assert.deepEqual(await errors('src/vscode/base/fixture.ts', "import { x } from '../panel/agentPanel';\n"), [Z]);
    assert.deepEqual(await errors('src/vscode/base/fixture.ts', "import type { X } from '../build/buildFeature';\n"), [
      Z,
    ]);
    assert.deepEqual(await errors('src/vscode/panel/fixture.ts', "import { x } from '../llm/modelCommands';\n"), [Z]);
    assert.deepEqual(
      await errors('src/vscode/panel/agentPanel.ts', "import { x } from '../brainstorm/brainstormCommands';\n"),
      [Z],
    );
    assert.deepEqual(
      await errors(
        'src/vscode/llm/fixture.ts',
        "import { x } from '../panel/agentPanel';\nimport { y } from '../base/lifecycle';\n",
      ),
      [],
    );
    // A feature: another feature is refused, type-only or not, unless spelled out.
    assert.deepEqual(
      await errors('src/vscode/chat/fixture.ts', "import { x } from '../discovery/discoveryController';\n"),
      [Z],
    );
    assert.deepEqual(await errors('src/vscode/chat/fixture.ts', "import type { X } from '../build/buildFeature';\n"), [
      Z,
    ]);
    assert.deepEqual(await errors('src/vscode/cases/fixture.ts', "import { x } from '../agentRun/runRows';\n"), [Z]);
    assert.deepEqual(await errors('src/vscode/agentRuntime/fixture.ts', "import { x } from '../agentRun/runRows';\n"), [
      Z,
    ]);
    assert.deepEqual(
      await errors(
        'src/vscode/build/fixture.ts',
        "import { x } from '../agentRun/runRows';\nimport { y } from '../agentRuntime/agentRuntime';\nimport { z } from '../base/lifecycle';\n",
      ),
      [],
    );
    assert.deepEqual(await errors('src/vscode/annotations/fixture.ts', "import { x } from '../cases/caseRows';\n"), []);
    assert.deepEqual(
      await errors('src/vscode/cases/fixture.ts', "import { x } from '../annotations/annotationsHover';\n"),
      [Z],
    );
    // The explorer: its registration API, nothing else of it; and it imports no feature.
    assert.deepEqual(
      await errors(
        'src/vscode/build/fixture.ts',
        "import { x } from '../explorer/explorerGroups';\nimport { y } from '../explorer/rowItem';\nimport { z } from '../explorer/planExplorer';\n",
      ),
      ['3:import/no-restricted-paths'],
    );
    assert.deepEqual(await errors('src/vscode/explorer/fixture.ts', "import type { X } from '../cases/caseRows';\n"), [
      Z,
    ]);
    // The top: features take the Host types from host.ts, never the list or the composition root.
    assert.deepEqual(
      await errors(
        'src/vscode/journal/fixture.ts',
        "import type { Host } from '../host';\nimport { x } from '../contributions';\nimport type { Y } from '../extension';\n",
      ),
      ['2:import/no-restricted-paths', '3:import/no-restricted-paths'],
    );
    assert.deepEqual(
      await errors(
        'src/vscode/fixture.ts',
        "import { x } from './build/buildFeature';\nimport { y } from './base/lifecycle';\n",
      ),
      [],
    );
  });

  test('webview: a part imports no other part; the shared controls and the app import no part', async () => {
    const Z = '1:import/no-restricted-paths';
    assert.deepEqual(
      await errors('webview/parts/build/fixture.ts', "import { x } from '../brainstorm/brainstormCard';\n"),
      [Z],
    );
    assert.deepEqual(
      await errors(
        'webview/parts/build/fixture.ts',
        "import { x } from '../panel/controls';\nimport { y } from '../../dom';\n",
      ),
      [],
    );
    assert.deepEqual(await errors('webview/parts/panel/fixture.ts', "import { x } from '../build/buildPart';\n"), [Z]);
    assert.deepEqual(await errors('webview/app.ts', "import { x } from './parts/panel/controls';\n"), [Z]);
    assert.deepEqual(await errors('webview/main.ts', "import { x } from './parts/build/buildPart';\n"), []);
  });

  test('a relative import that resolves to no file is an error (the zones could not see where it goes)', async () => {
    assert.deepEqual(
      await errors('src/core/fixture.ts', "import { x } from './no-such-file';\nimport { y } from 'some-package';\n"),
      ['1:import/no-unresolved'],
    );
  });
});
