// Spec annotations inside a real VS Code: a spec with a green and a blue region, two discovery
// notes (one case active, one outdated), a note naming a case the workspace does not have and a
// malformed marker. Groundwork draws the notes and regions (asserted through what it applied, the
// extension's test API), reports the unknown id and the marker as diagnostics, shows the case in a
// hover whose only trusted links are Groundwork's review commands, records Mark Outdated from the
// hover's link in cases.jsonl and draws the note as outdated; typing in prose costs no redraw,
// writing a marker is drawn after the debounce; Undo takes a note inserted as an edit out again.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { planNote } from '../../src/core/annotations/specNotePlan';
import { newCase, serializeCase } from '../../src/core/cases/caseRecord';
import { EditorSpecWriter } from '../../src/vscode/agentRuntime/specEditor';
import { until } from '../support/until';

interface Drawn {
  notes: Record<'active' | 'outdated' | 'archived' | 'missing', number>;
  regions: Record<string, number>;
  markers: number;
}
interface AnnotationsApi {
  annotationsDrawn(editor: vscode.TextEditor): Drawn | undefined;
}

const NOTE_ACTIVE = 'Safari requires SameSite=None for the session cookie';
const NOTE_OUTDATED = 'Passwords were hashed with bcrypt cost 10';
const SPEC = [
  '# Requirements',
  '',
  '- <!--@ax:0-40:green:task-001-->[task-001] Users log in with email and password.<!--/@ax-->',
  `<!--@ax-discovery:task-001:disc-901-->${NOTE_ACTIVE}<!--/@ax-->`,
  `<!--@ax-discovery:task-001:disc-902-->${NOTE_OUTDATED}<!--/@ax-->`,
  '- <!--@ax:41-80:blue:task-002-->[task-002] Users reset a forgotten password.<!--/@ax-->',
  '<!--@ax-discovery:task-002:disc-999-->A note whose case is not in this workspace<!--/@ax-->',
  '<!--@ax:oops:green:task-003-->A malformed marker<!--/@ax-->',
  '',
  'Prose after the annotations.',
  '',
].join('\n');

describe('Spec annotations', () => {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const dir = join(root, 'annotations-spec');
  const spec = join(dir, 'requirements.md');
  const casesFile = join(root, '.groundwork', 'cases.jsonl');
  let api: AnnotationsApi;
  let hadState = false;
  let editor: vscode.TextEditor;
  const drawn = () => api.annotationsDrawn(editor);
  /**
   * Runs a command that acts on the focused editor (undo, revert) with the spec's editor focused: in
   * the window the UI tests drove, the keyboard may be anywhere (a webview, the panel).
   */
  const inSpec = async (command: string) => {
    editor = await vscode.window.showTextDocument(editor.document, { preserveFocus: false });
    await vscode.commands.executeCommand(command);
  };
  const lastLine = (id: string) =>
    readFileSync(casesFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; status: string })
      .filter((c) => c.id === id)
      .at(-1);

  before(async () => {
    api = (await vscode.extensions.getExtension<AnnotationsApi>('groundwork.groundwork')!.activate()) as AnnotationsApi;
    hadState = existsSync(join(root, '.groundwork'));
    mkdirSync(join(root, '.groundwork'), { recursive: true });
    assert.ok(!existsSync(casesFile), 'another suite left cases.jsonl behind');
    const at = new Date().toISOString();
    const active = newCase(
      'disc-901',
      {
        content: NOTE_ACTIVE,
        scope: 'global',
        impact: 'high',
        category: 'Frontend',
        sourceTaskId: 'task-001',
        sourceAgentId: 'build-developer',
      },
      at,
    );
    const old = newCase(
      'disc-902',
      { content: NOTE_OUTDATED, scope: 'local', impact: 'medium', category: 'Conventions' },
      at,
    );
    const outdated = {
      ...old,
      status: 'outdated' as const,
      metadata: { ...old.metadata, outdatedAt: at, outdatedReason: 'marked by user' as const },
    };
    writeFileSync(casesFile, serializeCase(active) + serializeCase(outdated));
    mkdirSync(dir, { recursive: true });
    writeFileSync(spec, SPEC);
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(spec));
  });

  after(async () => {
    await vscode.commands
      .executeCommand('workbench.action.revertAndCloseActiveEditor')
      .then(undefined, () => undefined);
    rmSync(dir, { recursive: true, force: true });
    if (!hadState) rmSync(join(root, '.groundwork'), { recursive: true, force: true });
    else
      for (const made of ['cases.jsonl', 'discoveries.md', 'agents', 'metrics'])
        rmSync(join(root, '.groundwork', made), { recursive: true, force: true });
  });

  it('draws the notes by their case, the regions by colour, and reports an unknown id and a malformed marker', async () => {
    const d = await until('the notes drawn with their cases', () => {
      const now = drawn();
      return now !== undefined && now.notes.outdated === 1 && now;
    });
    assert.deepEqual(d.notes, { active: 1, outdated: 1, archived: 0, missing: 1 });
    assert.equal(d.regions['green'], 1);
    assert.equal(d.regions['blue'], 1);
    assert.equal(d.markers, 10, 'both markers of each of the five annotations are dimmed');
    const diagnostics = await until('two diagnostics', () => {
      const list = vscode.languages.getDiagnostics(editor.document.uri);
      return list.length === 2 && list;
    });
    assert.deepEqual(
      diagnostics.map((x) => [x.range.start.line, x.source, x.code]).sort((a, b) => Number(a[0]) - Number(b[0])),
      [
        [6, 'Groundwork', 'unknownCase'],
        [7, 'Groundwork', 'malformed'],
      ],
    );
    assert.match(diagnostics.find((x) => x.code === 'unknownCase')?.message ?? '', /disc-999/);
  });

  it('hovers a note with its case, and Mark Outdated from the hover is recorded and redrawn', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      new vscode.Position(3, 45),
    );
    const md = hovers
      .flatMap((h) => h.contents)
      .find((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && c.value.includes('disc-901'));
    assert.ok(md, `a hover for disc-901: ${JSON.stringify(hovers.map((h) => h.contents))}`);
    assert.ok(md.value.includes('SameSite=None'), 'the case content');
    assert.match(md.value, /high/, 'its impact');
    assert.match(md.value, /build\\?-developer/, 'the agent that learned it');
    const trusted = md.isTrusted;
    assert.ok(
      typeof trusted === 'object' && trusted.enabledCommands.every((c) => c.startsWith('groundwork.cases.')),
      'only Groundwork review commands are trusted',
    );
    const link = /\(command:(groundwork\.cases\.markOutdated)\?([^)]+)\)/.exec(md.value);
    assert.ok(link, `a Mark Outdated link in ${md.value}`);
    const args = JSON.parse(decodeURIComponent(link[2] ?? '')) as unknown[];
    await vscode.commands.executeCommand(link[1] ?? '', ...args);
    await until('cases.jsonl records disc-901 outdated', () => lastLine('disc-901')?.status === 'outdated');
    const d = await until('the note drawn outdated', () => drawn()?.notes.outdated === 2 && drawn());
    assert.equal(d.notes.active, 0);
  });

  it('typing in prose keeps the drawing; a note typed in is drawn after the pause', async () => {
    const before = drawn();
    const prose = editor.document.getText().indexOf('Prose after');
    assert.ok(await editor.edit((e) => e.insert(editor.document.positionAt(prose + 5), ' typed')));
    assert.deepEqual(drawn(), before);
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    assert.ok(await editor.edit((e) => e.insert(end, '<!--@ax-discovery:task-002:disc-901-->again<!--/@ax-->\n')));
    await until('the new note drawn', () => drawn()?.notes.outdated === 3);
    await inSpec('undo');
    await until('the undone note no longer drawn', () => drawn()?.notes.outdated === 2);
  });

  it("a run's note reaches an open spec as an edit: the person's unsaved text stays, Undo takes the note out; a clean one is saved", async () => {
    const writer = new EditorSpecWriter(root);
    const note = planNote(editor.document.getText(), 'task-002', 'disc-903', NOTE_ACTIVE);
    assert.equal(note.kind, 'insert');
    assert.ok(editor.document.isDirty, 'the typing above left unsaved edits');
    const onDisk = readFileSync(spec, 'utf8');
    assert.ok(
      await writer.edit(spec, (text) => {
        const plan = planNote(text, 'task-002', 'disc-903', NOTE_ACTIVE);
        return plan.kind === 'insert' ? plan.insertion : undefined;
      }),
    );
    assert.match(editor.document.getText(), /task-002:disc-903/);
    assert.match(editor.document.getText(), / typed/, "the person's unsaved edit is still there");
    assert.equal(readFileSync(spec, 'utf8'), onDisk, 'a spec with unsaved edits is not saved behind the person');
    await inSpec('undo');
    assert.doesNotMatch(editor.document.getText(), /task-002:disc-903/);
    await inSpec('workbench.action.files.revert');
    assert.equal(editor.document.isDirty, false, 'the spec is as on disk again');
    assert.ok(await writer.edit(spec, (text) => ({ text: text.replace('Prose after', 'Prose, marked, after') })));
    assert.match(readFileSync(spec, 'utf8'), /Prose, marked, after/, 'a clean spec is saved');
    await assert.rejects(
      writer.edit(join(root, '..', 'outside.md'), () => ({ text: 'x' })),
      /not a file inside/,
    );
  });
});
