// The manifest is what a user meets first: every command it shows must do something, every
// string must be there, and nothing may make VS Code start Groundwork before it is needed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_MODELS } from '../../../src/core/llm/models';
import { sourceFiles } from '../architecture/importScan';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const contributed: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);

function registeredCommands(): Set<string> {
  const found = new Set<string>();
  for (const file of sourceFiles(join(root, 'src/vscode'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/registerCommand\(\s*'([^']+)'/g)) found.add(m[1]!);
  }
  return found;
}

describe('package.json', () => {
  test('every contributed command has a handler, and every handler is contributed', () => {
    const registered = registeredCommands();
    assert.deepEqual([...registered].sort(), [...contributed].sort());
  });

  test('menus and welcome links name contributed commands only', () => {
    const menus = Object.values(pkg.contributes.menus as Record<string, Array<{ command: string }>>).flat();
    for (const item of menus)
      assert.ok(contributed.includes(item.command), `menu names unknown command ${item.command}`);
    // VS Code makes a `<view>.focus` command for each view.
    const views = Object.values(pkg.contributes.views as Record<string, Array<{ id: string }>>)
      .flat()
      .map((v) => `${v.id}.focus`);
    for (const text of Object.values(nls)) {
      for (const m of text.matchAll(/\(command:([\w.]+)\)/g)) {
        assert.ok(
          contributed.includes(m[1]!) || views.includes(m[1]!),
          `welcome content links to unknown command ${m[1]}`,
        );
      }
    }
  });

  test('every %key% has an English string, and no string is unused', () => {
    const keys = [...JSON.stringify(pkg).matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]!);
    for (const key of keys) assert.ok(nls[key]?.trim(), `package.nls.json lacks ${key}`);
    assert.deepEqual(Object.keys(nls).sort(), [...new Set(keys)].sort());
  });

  test('the walkthrough: five steps, each with a picture that exists, a command link and an event that completes it; the Plans welcome opens it', () => {
    const [walkthrough] = pkg.contributes.walkthroughs as Array<{
      id: string;
      steps: Array<{ id: string; description: string; media: { image: string }; completionEvents: string[] }>;
    }>;
    assert.ok(walkthrough);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['connectModel', 'discover', 'brainstorm', 'build', 'review'],
    );
    for (const step of walkthrough.steps) {
      assert.ok(existsSync(join(root, step.media.image)), step.media.image);
      assert.match(nls[step.description.replace(/%/g, '')] ?? '', /\(command:[\w.]+\)/, `${step.id} links its command`);
      assert.ok(step.completionEvents.length > 0, `${step.id} completes on a real event`);
    }
    assert.ok(
      nls['welcome.planExplorer']?.includes(
        `command:workbench.action.openWalkthrough?%22groundwork.groundwork%23${walkthrough.id}%22`,
      ),
    );
  });

  test('supports Restricted Mode in a limited way and says how', () => {
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(nls[pkg.capabilities.untrustedWorkspaces.description.replace(/%/g, '')]);
  });

  test('starts only when one of its views or commands is used, a markdown document opens (its spec annotations) or a folder with a .groundwork/ (the badge counts its sessions)', () => {
    assert.deepEqual(pkg.activationEvents, ['onLanguage:markdown', 'workspaceContains:.groundwork']);
    assert.equal(pkg.contributes['markdown.markdownItPlugins'], true);
    assert.deepEqual(pkg.contributes['markdown.previewStyles'], ['./media/annotationsPreview.css']);
    assert.equal(pkg.main, './dist/extension.js');
  });

  test('the views sit in a Groundwork activity-bar container, the tree with welcome content', () => {
    const container = pkg.contributes.viewsContainers.activitybar.find((c: { id: string }) => c.id === 'groundwork');
    assert.ok(container);
    const views = pkg.contributes.views.groundwork as Array<{ id: string; type?: string }>;
    assert.deepEqual(
      views.map((v) => [v.id, v.type ?? 'tree']),
      [
        ['groundwork.agentPanel', 'webview'],
        ['groundwork.planExplorer', 'tree'],
      ],
    );
    assert.ok(pkg.contributes.viewsWelcome.some((w: { view: string }) => w.view === 'groundwork.planExplorer'));
  });

  test('the model settings default to the models the core uses when they are empty', () => {
    const props = pkg.contributes.configuration.properties;
    assert.equal(props['groundwork.models.complex'].default, DEFAULT_MODELS.complex);
    assert.equal(props['groundwork.models.fast'].default, DEFAULT_MODELS.fast);
  });

  test('the base URL is an application setting, so a workspace cannot set it', () => {
    assert.equal(pkg.contributes.configuration.properties['groundwork.anthropic.baseUrl'].scope, 'application');
  });

  test('the CLI is a bin named groundwork', () => {
    assert.deepEqual(pkg.bin, { groundwork: './dist/cli.js' });
  });
});
