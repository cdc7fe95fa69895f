import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkLayers, importsOf, type LayerRule } from './importScan';

const root = join(__dirname, '..', '..', '..');
const nodeBuiltins = new RegExp(`^(node:|(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})(\\/|$))`);
const vscodeOrNode = new RegExp(`^vscode$|${nodeBuiltins.source}`);

// ARCHITECTURE.md: shared ← core ← vscode, cli → core, webview → shared; I/O only in core/node.
const RULES: LayerRule[] = [
  { folder: 'src/shared', bannedModules: vscodeOrNode, bannedFolders: ['src/core', 'src/vscode', 'src/cli', 'webview'], rule: 'src/shared imports nothing of vscode, node or the other layers' },
  { folder: 'src/core', except: ['src/core/node'], bannedModules: vscodeOrNode, bannedFolders: ['src/vscode', 'src/cli', 'webview', 'src/core/node'], rule: 'src/core is pure: no vscode, no node I/O (that is src/core/node)' },
  { folder: 'src/core/node', bannedModules: /^vscode$/, bannedFolders: ['src/vscode', 'src/cli', 'webview'], rule: 'src/core/node must not import vscode or the front ends' },
  { folder: 'src/cli', bannedModules: /^vscode$/, bannedFolders: ['src/vscode', 'webview'], rule: 'the CLI runs without VS Code' },
  { folder: 'webview', bannedModules: vscodeOrNode, bannedFolders: ['src/core', 'src/vscode', 'src/cli'], rule: 'the webview imports src/shared only' },
];

describe('layer rule', () => {
  test('the source tree keeps the layers of ARCHITECTURE.md', () => {
    const violations = checkLayers(root, RULES);
    assert.deepEqual(violations, [], violations.map((v) => `${v.file} imports '${v.specifier}': ${v.rule}`).join('\n'));
  });

  test('the scan catches each kind of forbidden import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-layers-'));
    try {
      const put = (rel: string, text: string) => {
        mkdirSync(join(dir, rel, '..'), { recursive: true });
        writeFileSync(join(dir, rel), text);
      };
      put('src/core/a.ts', "import * as vscode from 'vscode';\n");
      put('src/core/b.ts', "import { readFile } from 'node:fs/promises';\n");
      put('src/core/node/ok.ts', "import { readFile } from 'node:fs/promises';\n");
      put('src/shared/c.ts', "export type { X } from '../core/x';\n");
      put('webview/d.ts', "import type { Journal } from '../src/core/journal/journal';\n");
      put('webview/e.ts', "const v = require('vscode');\n");
      put('webview/f.ts', "import '../src/shared/protocol';\n// import 'vscode' in a comment is fine\n");
      put('src/cli/g.ts', "const m = await import('vscode');\n");
      put('src/vscode/h.ts', "import * as vscode from 'vscode';\n");
      const found = checkLayers(dir, RULES).map((v) => `${v.file}:${v.specifier}`).sort();
      assert.deepEqual(found, [
        'src/cli/g.ts:vscode',
        'src/core/a.ts:vscode',
        'src/core/b.ts:node:fs/promises',
        'src/shared/c.ts:../core/x',
        'webview/d.ts:../src/core/journal/journal',
        'webview/e.ts:vscode',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bare node built-ins without the node: prefix count as node', () => {
    assert.ok(nodeBuiltins.test('fs'));
    assert.ok(nodeBuiltins.test('fs/promises'));
    assert.ok(nodeBuiltins.test('child_process'));
    assert.ok(!nodeBuiltins.test('yaml'));
    assert.ok(!nodeBuiltins.test('fsevents-like'));
  });

  test('imports are found in every syntax', () => {
    assert.deepEqual(
      importsOf(`import a from 'a';\nimport type { B } from "b";\nimport 'c';\nexport * from './d';\nexport { e } from './e';\nconst f = require('f');\nawait import('g');`).sort(),
      ['./d', './e', 'a', 'b', 'c', 'f', 'g'],
    );
  });
});
