// Groundwork inside a real VS Code (code-server's extension host; see scripts/vscode/runTests.mjs).
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PanelSlices } from '../../src/shared/protocol/panel';
import { until } from '../support/until';
import { requireTrust } from '../../src/vscode/base/trust';

const EXTENSION_ID = 'groundwork.groundwork';

/** What `activate()` returns for tests (the extension's test API). */
interface GroundworkTestApi {
  panel: {
    whenReady(): Promise<void>;
    lastSnapshot(): PanelSlices | undefined;
    ping(text: string): Promise<string>;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function extension(): vscode.Extension<GroundworkTestApi> {
  const ext = vscode.extensions.getExtension<GroundworkTestApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  return ext;
}

describe('Groundwork extension', () => {
  let api: GroundworkTestApi;

  before(async () => {
    api = await extension().activate();
  });

  it('is present and activates without errors', async () => {
    const ext = extension();
    assert.equal(ext.isActive, true);
    assert.ok(api, 'activate() returned no test API');
    assert.equal(typeof api.panel?.ping, 'function', 'test API has no panel.ping');
    assert.equal(typeof api.panel?.whenReady, 'function', 'test API has no panel.whenReady');
    assert.equal(typeof api.panel?.lastSnapshot, 'function', 'test API has no panel.lastSnapshot');
  });

  it('contributes the Groundwork container with the Agent and Plans views', () => {
    const contributes = extension().packageJSON.contributes;
    const containers: { id: string }[] = contributes?.viewsContainers?.activitybar ?? [];
    assert.ok(
      containers.some((c) => c.id === 'groundwork'),
      'no activity-bar container "groundwork"',
    );
    const views: { id: string; type?: string }[] = contributes?.views?.groundwork ?? [];
    assert.deepEqual(views.map((v) => v.id).sort(), ['groundwork.agentPanel', 'groundwork.planExplorer']);
    assert.equal(views.find((v) => v.id === 'groundwork.agentPanel')?.type, 'webview');
  });

  it('registers its commands and the commands VS Code makes for its container and views', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const expected = [
      'groundwork.openPanel',
      'groundwork.refreshExplorer',
      'groundwork.journal.add',
      'groundwork.manageTrust',
      // made by VS Code from the contributions: proves the container and views are registered
      'workbench.view.extension.groundwork',
      'groundwork.agentPanel.focus',
      'groundwork.planExplorer.focus',
    ];
    assert.deepEqual(
      expected.filter((c) => !all.has(c)),
      [],
      'commands missing',
    );
  });

  it('groundwork.refreshExplorer runs without error', async () => {
    await vscode.commands.executeCommand('groundwork.refreshExplorer');
  });

  it('groundwork.openPanel shows the Agent panel, and a ping makes the round trip through the webview', async () => {
    await vscode.commands.executeCommand('groundwork.openPanel');
    await withTimeout(api.panel.whenReady(), 30_000, 'panel.whenReady()');
    assert.equal(await withTimeout(api.panel.ping('hello'), 15_000, "panel.ping('hello')"), 'hello');
    // a second, different payload: the echo is the webview's answer, not a cached value
    assert.equal(await withTimeout(api.panel.ping('round trip ✓'), 15_000, 'panel.ping'), 'round trip ✓');
  });

  it('sends the ready panel a snapshot of the workspace', async () => {
    await vscode.commands.executeCommand('groundwork.openPanel');
    await withTimeout(api.panel.whenReady(), 30_000, 'panel.whenReady()');
    await until('a snapshot sent to the panel', () => api.panel.lastSnapshot());
  });

  it('tells the panel the workspace is trusted and open', async () => {
    await vscode.commands.executeCommand('groundwork.openPanel');
    await withTimeout(api.panel.whenReady(), 30_000, 'panel.whenReady()');
    const state = await until('a snapshot', () => api.panel.lastSnapshot());
    assert.equal(state.panel.trusted, true);
    assert.equal(state.panel.hasWorkspace, true);
  });

  it('shows the panel a discovery another process appended to the journal', async () => {
    await vscode.commands.executeCommand('groundwork.openPanel');
    await withTimeout(api.panel.whenReady(), 30_000, 'panel.whenReady()');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test workspace has a folder');
    const dir = join(folder.uri.fsPath, '.groundwork');
    mkdirSync(dir, { recursive: true });
    const before = api.panel.lastSnapshot()?.journal.total ?? 0;
    const title = `Written by another process ${Date.now()}`;
    // what the CLI beside the window does: one JSON line appended to the journal
    appendFileSync(
      join(dir, 'discoveries.jsonl'),
      JSON.stringify({ timestamp: new Date().toISOString(), title, description: 'seen through the file watcher' }) +
        '\n',
    );
    const state = await until('the panel to receive the new discovery', () => {
      const s = api.panel.lastSnapshot();
      return s && s.journal.total > before ? s : undefined;
    });
    assert.equal(state.journal.entries[0]?.title, title);
  });

  it('never sends the API key to the panel (the UI tests stored a canary key before this suite)', async () => {
    const state = await until('a snapshot', () => api.panel.lastSnapshot());
    assert.equal(state.model.status, 'ready', 'the key typed in the UI tests is in use');
    assert.ok(!JSON.stringify(state).includes('sk-ant-canary'), 'the key is in a message to the webview');
  });

  it('lets work start in a trusted workspace without asking', async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    assert.equal(requireTrust('start a discovery'), true);
  });
});
