// Spec annotations in VS Code, the feature's own bundle (dist/annotations.js, loaded when a
// markdown editor is first visible, the preview renders, or Annotate with Discovery… runs): the
// highlights (annotationsDecor.ts) and diagnostics of every visible markdown editor, kept in step
// as the person types and as the cases change; the hover and the counts above regions
// (annotationsHover.ts); the preview's markdown-it plugin; and Annotate with Discovery…
// (annotationsAnnotate.ts).
//
// A keystroke in prose costs no parse: core/annotations/annotationShift.ts moves the offsets, and
// nothing is drawn again (no range moved). Any other edit is parsed again after ANNOTATIONS_DEBOUNCE_MS.
import * as vscode from 'vscode';
import { parseAnnotations } from '../../core/annotations/annotationParser';
import type { AnnotationParse } from '../../core/annotations/annotationParser';
import { caseProblems } from '../../core/annotations/annotationCheck';
import { annotationLook } from '../../core/annotations/annotationLook';
import { shiftedParse } from '../../core/annotations/annotationShift';
import { annotationsPreview } from '../../core/annotations/previewPlugin';
import { AnnotationCases } from './annotationsCases';
import { annotateWithDiscovery, goToNotes } from './annotationsAnnotate';
import { AnnotationDecorations } from './annotationsDecor';
import type { DrawnAnnotations } from './annotationsDecor';
import { AnnotationHovers } from './annotationsHover';
import type { Host } from '../host';
import { Disposable, Emitter, toDisposable } from '../base/lifecycle';

/** How long after the last edit a document that needs a full parse is parsed. */
export const ANNOTATIONS_DEBOUNCE_MS = 150;
/** A document bigger than this is not annotated (the parse is linear, but drawing a million ranges is not). */
const DOCUMENT_MAX_CHARS = 20_000_000;

interface DocState {
  version: number;
  text: string;
  parse: AnnotationParse;
  timer?: ReturnType<typeof setTimeout>;
}

export function createAnnotations(host: Host): Annotations {
  return new Annotations(host);
}

export class Annotations extends Disposable {
  private readonly decor = this._register(new AnnotationDecorations());
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('groundwork-annotations'));
  private readonly docs = new Map<string, DocState>();
  private readonly parsed = this._register(new Emitter<void>());
  readonly cases: AnnotationCases;

  constructor(private readonly host: Host) {
    super();
    this.cases = this._register(new AnnotationCases(host, () => this.casesChanged()));
    this._register(new AnnotationHovers(this, this.parsed.event));
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.drawVisible()));
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.edited(e)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.forget(doc.uri.toString());
        this.diagnostics.delete(doc.uri);
      }),
    );
    this._register(toDisposable(() => [...this.docs.keys()].forEach((key) => this.forget(key))));
    this.drawVisible();
  }

  /** The parse of a markdown document as it is now (parsed now if it changed since). */
  parseOf(doc: vscode.TextDocument): AnnotationParse | undefined {
    if (doc.languageId !== 'markdown') return undefined;
    const key = doc.uri.toString();
    const known = this.docs.get(key);
    if (known !== undefined && known.version === doc.version && known.timer === undefined) return known.parse;
    const text = doc.getText();
    if (text.length > DOCUMENT_MAX_CHARS) return undefined;
    clearTimeout(known?.timer);
    const state: DocState = { version: doc.version, text, parse: parseAnnotations(text) };
    this.docs.set(key, state);
    if (state.parse.annotations.some((a) => a.kind === 'discovery')) this.cases.want();
    this.parsed.fire();
    return state.parse;
  }

  /** What Groundwork last drew in an editor, for the tests through the extension's API. */
  drawnIn(editor: vscode.TextEditor): DrawnAnnotations | undefined {
    return this.decor.drawnIn(editor);
  }

  /** The preview's plugin: the same highlights, statuses from the cases this window has read. */
  extendMarkdownIt<T>(md: T): T {
    this.cases.want();
    (md as unknown as { use(plugin: unknown, options: unknown): unknown }).use(annotationsPreview, {
      lookup: (id: string) => this.cases.get(id),
    });
    return md;
  }

  /** `Groundwork: Annotate with Discovery…` on the active editor's selection. */
  annotate(): Promise<void> {
    return annotateWithDiscovery(this.host, this);
  }

  /** The count above a region: its task's notes in the document. */
  goToNotes(uri: unknown, task: unknown): Promise<void> {
    return goToNotes(this, uri, task);
  }

  /** Draws every visible markdown editor from its document's current parse. */
  drawVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const parse = this.parseOf(editor.document);
      if (parse === undefined) continue;
      this.draw(editor, parse);
    }
  }

  private draw(editor: vscode.TextEditor, parse: AnnotationParse): void {
    const lookup = (id: string) => this.cases.get(id);
    this.decor.draw(editor, annotationLook(parse, this.cases.ready ? lookup : undefined));
    const problems = [...parse.problems, ...(this.cases.ready ? caseProblems(parse, lookup) : [])];
    this.diagnostics.set(
      editor.document.uri,
      problems.map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character),
          p.message,
          vscode.DiagnosticSeverity.Warning,
        );
        d.source = 'Groundwork';
        d.code = p.kind;
        return d;
      }),
    );
  }

  private edited(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    if (doc.languageId !== 'markdown' || e.contentChanges.length === 0) return;
    const key = doc.uri.toString();
    const state = this.docs.get(key);
    if (state === undefined) return; // not shown yet: parsed when it is
    const [change] = e.contentChanges;
    if (
      state.timer === undefined &&
      e.contentChanges.length === 1 &&
      change !== undefined &&
      state.version === doc.version - 1
    ) {
      const text =
        state.text.slice(0, change.rangeOffset) +
        change.text +
        state.text.slice(change.rangeOffset + change.rangeLength);
      const shifted = shiftedParse(state.parse, state.text, text, change);
      if (shifted !== undefined) {
        // Nothing moved on screen: the decorations VS Code keeps are still right.
        Object.assign(state, { version: doc.version, text, parse: shifted });
        return;
      }
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (!vscode.window.visibleTextEditors.some((ed) => ed.document === doc)) {
        this.forget(key); // parsed again when it is shown
        return;
      }
      this.drawVisible();
    }, ANNOTATIONS_DEBOUNCE_MS);
  }

  private casesChanged(): void {
    this.drawVisible();
    this.parsed.fire(); // the counts above regions say how many notes are not active
    void vscode.commands.executeCommand('markdown.preview.refresh').then(undefined, () => undefined);
  }

  private forget(key: string): void {
    clearTimeout(this.docs.get(key)?.timer);
    this.docs.delete(key);
  }
}
