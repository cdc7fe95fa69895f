// Discovery's read tools through VS Code's Language Model API: the scripted chat model (fixtures/
// fakeChatModel) reads the paths named after "READ:" in the request, one tool call per turn, and
// echoes every tool result it got back. The workspace's README.md reaches it fenced as data; a
// path out of the workspace and a link out of it get error results.
import * as assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DiscoveryService } from '../../src/core/discovery/discoveryService';
import { NodeWorkspaceFs } from '../../src/core/node/nodeWorkspaceFs';
import type { Role } from '../../src/core/roles/roleSchema';
import { WorkspaceStore } from '../../src/core/storage/workspaceStore';
import type { ToolActivity } from '../../src/core/tools/toolActivity';
import { LanguageModelClient } from '../../src/vscode/llm/languageModelClient';
import { until } from '../support/until';

const MODEL_ID = 'groundwork-fake-model';
const SECRET = 'OUTSIDE-SECRET-9902';

const role: Role = {
  name: 'build-discovery',
  description: 'test',
  tools: ['read_file', 'list_files', 'search'],
  model: { tier: 'complex' },
  permissionMode: 'readOnly',
  maxTurns: 6,
  prompt: "You are Groundwork's discovery agent (test).",
};

describe('Discovery reads the workspace through the Language Model API', () => {
  before(async () => {
    await vscode.extensions.getExtension('groundwork.groundwork')!.activate();
    await vscode.commands.executeCommand('groundworkTests.enableFakeModel');
    await until('the scripted chat model', async () =>
      (await vscode.lm.selectChatModels({ id: MODEL_ID })).length ? true : undefined,
    );
  });

  it('README.md comes back as a fenced tool result; ../outside.txt and a link out are refused', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const outside = join(mkdtempSync(join(tmpdir(), 'groundwork-outside-')), 'outside.txt');
    writeFileSync(outside, SECRET);
    symlinkSync(outside, join(folder, 'link-out.txt'));
    const store = new WorkspaceStore(new NodeWorkspaceFs(), folder);
    const llm = new LanguageModelClient(vscode, { modelFor: () => MODEL_ID, justification: 'Groundwork tests' });
    const service = new DiscoveryService({
      store,
      llm,
      clock: { now: () => Date.now() },
      role: async () => role,
      ttlMinutes: 30,
    });
    const activities: ToolActivity[] = [];
    let streamed = '';
    await service.handle('lm-tools', 'build a plugin for this project READ:README.md,../outside.txt,link-out.txt', {
      lang: 'en',
      signal: new AbortController().signal,
      force: true,
      onTool: (a) => activities.push(a),
      onText: (t) => (streamed += t),
    });
    assert.deepEqual(
      activities.filter((a) => a.status !== 'running').map((a) => [a.target, a.status]),
      [
        ['README.md', 'done'],
        ['../outside.txt', 'error'],
        ['link-out.txt', 'error'],
      ],
    );
    const results = /results="(.*)"$/s.exec(streamed)?.[1] ?? '';
    assert.match(
      results,
      /\[tool_result call-1: .*<untrusted-data boundary=\\"[0-9a-f]+\\" source=\\"[^"\\]*README\.md/s,
      streamed.slice(0, 600),
    );
    assert.match(results, /\[tool_result call-2: Error: /);
    assert.match(results, /\[tool_result call-3: Error: /);
    assert.ok(!streamed.includes(SECRET), 'the outside file reached the model');
  });
});
