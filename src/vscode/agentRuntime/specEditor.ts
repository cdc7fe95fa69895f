// The window's SpecWriter (core/annotations/specWriter.ts): how a run's discovery note and a build's
// green regions reach a spec. A spec open in an editor is changed as a WorkspaceEdit, so the
// person's unsaved edits stay, the change joins the editor's undo history, and the text changed is
// the text the person sees; it is saved only when it had no unsaved edits before. A spec that is
// not open is written on disk (NodeSpecWriter: confined to the workspace, atomic, read again when
// it changed meanwhile). Either way the path is first checked by the Node writer: no link out of
// the workspace, nothing but a regular file inside it.
import * as vscode from 'vscode';
import { changedText } from '../../core/annotations/specWriter';
import type { SpecChange, SpecWriter } from '../../core/annotations/specWriter';
import { NodeSpecWriter } from '../../core/node/nodeSpecWriter';

export class EditorSpecWriter implements SpecWriter {
  private readonly disk: NodeSpecWriter;

  constructor(folder: string) {
    this.disk = new NodeSpecWriter(folder);
  }

  async edit(absPath: string, change: (text: string) => SpecChange | undefined): Promise<boolean> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === absPath);
    if (doc === undefined) return this.disk.edit(absPath, change);
    // The checks of the path (and of the file on disk) without writing: the change asked for is none.
    let reachable = false;
    await this.disk.edit(absPath, () => {
      reachable = true;
      return undefined;
    });
    if (!reachable) return false;
    const before = doc.getText();
    const made = change(before);
    if (made === undefined || changedText(before, made) === before) return false;
    const wasDirty = doc.isDirty;
    const edit = new vscode.WorkspaceEdit();
    if ('text' in made)
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(before.length)), made.text);
    else edit.insert(doc.uri, doc.positionAt(made.offset), made.insert);
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(`${vscode.workspace.asRelativePath(doc.uri)} could not be changed in its editor.`);
    if (!wasDirty) await doc.save();
    return true;
  }
}
