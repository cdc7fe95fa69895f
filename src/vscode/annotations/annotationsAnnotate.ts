// `Groundwork: Annotate with Discovery…`: a discovery note after the selected region of a spec. The
// case is one the workspace has (picked) or a new one (Add Discovery's steps). The note goes in as
// a WorkspaceEdit on the open document, so it joins the person's unsaved edits and Undo takes it
// out; its content is escaped (annotationText.ts), so nothing in it can forge or close a marker.
// Also `groundwork.annotations.goToNotes`, the command of the count above a region.
import * as vscode from 'vscode';
import { annotationAt, notesOf } from '../../core/annotations/annotationLook';
import type { AnnotationParse, RegionAnnotation } from '../../core/annotations/annotationParser';
import { discoveryNote } from '../../core/annotations/annotationText';
import { taskProblem } from '../../core/annotations/markerSyntax';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import type { Host } from '../host';
import type { AnnotationSource } from './annotationsHover';

/** The most cases the picker lists, newest first. */
const PICK_MAX = 500;

export async function annotateWithDiscovery(host: Host, source: AnnotationSource): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Open a markdown spec and select the text the discovery is about, then run Annotate with Discovery… again.',
      ),
    );
    return;
  }
  const doc = editor.document;
  const parse = source.parseOf(doc);
  if (parse === undefined)
    return void vscode.window.showWarningMessage(vscode.l10n.t('This document is too large to annotate.'));
  const region = regionAround(parse, editor.selection.start);
  const task = region?.task ?? (await askTask());
  if (task === undefined) return;
  const service = host.workspace.hasWorkspace ? host.services.discoveries?.() : undefined;
  const caseId = await pickCase(host, service ? (await service.list()).cases : []);
  if (caseId === undefined) return;
  const c = source.cases.get(caseId) ?? (await service?.cases.get(caseId));
  if (c === undefined)
    return void vscode.window.showErrorMessage(vscode.l10n.t("{0} is not among this workspace's discoveries.", caseId));
  // Parsed again: the person may have typed while the pickers were open.
  const now = source.parseOf(doc) ?? parse;
  const line = lineAfter(
    now,
    region === undefined
      ? editor.selection.end.line
      : (regionAround(now, editor.selection.start)?.range.end.line ?? editor.selection.end.line),
    doc,
  );
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, doc.lineAt(line).range.end, eol + discoveryNote(task, c.id, c.content));
  if (!(await vscode.workspace.applyEdit(edit)))
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The note could not be inserted: the document changed or is read-only.'),
    );
}

/** `groundwork.annotations.goToNotes`: the notes of a task in a document; one goes straight to it. */
export async function goToNotes(source: AnnotationSource, uri: unknown, task: unknown): Promise<void> {
  if (!(uri instanceof vscode.Uri) || typeof task !== 'string') return;
  const doc = await vscode.workspace.openTextDocument(uri);
  const parse = source.parseOf(doc);
  const notes = parse ? notesOf(parse, task) : [];
  const items = notes.map((n) => ({
    label: n.caseId,
    description: source.cases.get(n.caseId)?.status ?? '',
    detail: doc
      .getText(
        new vscode.Range(
          n.contentRange.start.line,
          n.contentRange.start.character,
          n.contentRange.end.line,
          n.contentRange.end.character,
        ),
      )
      .slice(0, 200),
    note: n,
  }));
  const picked =
    items.length === 1
      ? items[0]
      : await vscode.window.showQuickPick(items, {
          title: vscode.l10n.t('Discovery notes for {0}', task),
          matchOnDetail: true,
        });
  if (picked === undefined) return;
  const at = new vscode.Position(picked.note.contentRange.start.line, picked.note.contentRange.start.character);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at) });
}

/** The innermost region around a position, or undefined. */
function regionAround(parse: AnnotationParse, position: vscode.Position): RegionAnnotation | undefined {
  let a = annotationAt(parse, position);
  while (a !== undefined && a.kind !== 'region') a = a.parent >= 0 ? parse.annotations[a.parent] : undefined;
  return a;
}

/** The line a note goes after: `line`, or the last of the notes that start the lines right after it. */
function lineAfter(parse: AnnotationParse, line: number, doc: vscode.TextDocument): number {
  const startsLine = new Map<number, number>();
  for (const a of parse.annotations)
    if (a.kind === 'discovery' && a.range.start.character === 0) startsLine.set(a.range.start.line, a.range.end.line);
  let last = line;
  for (let next = startsLine.get(last + 1); next !== undefined; next = startsLine.get(last + 1)) last = next;
  return Math.min(last, doc.lineCount - 1);
}

async function askTask(): Promise<string | undefined> {
  const task = await vscode.window.showInputBox({
    title: vscode.l10n.t('Annotate with Discovery'),
    prompt: vscode.l10n.t('The selection is in no annotated region. Which task is the discovery about?'),
    placeHolder: 'task-001',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? undefined : taskProblem(value.trim())),
  });
  const trimmed = task?.trim();
  return trimmed === undefined || trimmed === '' || taskProblem(trimmed) !== undefined ? undefined : trimmed;
}

async function pickCase(host: Host, cases: readonly DiscoveryCase[]): Promise<string | undefined> {
  const shown = cases
    .filter((c) => c.status === 'active' || c.status === 'outdated')
    .slice(-PICK_MAX)
    .reverse();
  const items: (vscode.QuickPickItem & { id?: string })[] = [
    {
      label: `$(add) ${vscode.l10n.t('New Discovery…')}`,
      detail: vscode.l10n.t('Write what was learned; it becomes a case and the note shows it.'),
    },
    ...shown.map((c) => ({
      label: c.id,
      description: c.status,
      detail: c.content.replace(/\s+/g, ' ').slice(0, 200),
      id: c.id,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Annotate with Discovery'),
    placeHolder: vscode.l10n.t('Which discovery should the note show?'),
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (picked === undefined) return undefined;
  if (picked.id !== undefined) return picked.id;
  return host.services.addDiscovery?.();
}
