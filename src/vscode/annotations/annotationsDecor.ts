// The highlights of spec annotations in the editor: one decoration type per look (core/annotations/
// annotationLook.ts), made once for the window, in the theme colours package.json contributes
// (`groundwork.discoveryBackground` and the region colours, each with light, dark and
// high-contrast defaults). Discovery notes and the common region colours also mark the overview
// ruler; the markers themselves are dimmed.
import * as vscode from 'vscode';
import { NOTE_LOOKS, REGION_COLORS } from '../../core/annotations/annotationLook';
import type { AnnotationLook, NoteLook, RegionLook } from '../../core/annotations/annotationLook';
import type { Range } from '../../core/annotations/textPositions';
import { Disposable, toDisposable } from '../base/lifecycle';

/** The theme colour of each region colour (contributed in package.json). */
export const REGION_THEME_COLORS: Record<RegionLook, string> = {
  green: 'groundwork.implementedBackground',
  blue: 'groundwork.plannedBackground',
  red: 'groundwork.regionRedBackground',
  yellow: 'groundwork.discoveryBackground',
  orange: 'groundwork.regionOrangeBackground',
  purple: 'groundwork.regionPurpleBackground',
  other: 'groundwork.regionBackground',
};

const DISCOVERY = new vscode.ThemeColor('groundwork.discoveryBackground');

function noteOptions(look: NoteLook): vscode.DecorationRenderOptions {
  switch (look) {
    case 'active':
      return {
        backgroundColor: DISCOVERY,
        overviewRulerColor: DISCOVERY,
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      };
    case 'outdated':
      return {
        backgroundColor: DISCOVERY,
        opacity: '0.6',
        textDecoration: 'line-through',
        overviewRulerColor: DISCOVERY,
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      };
    case 'archived':
      return { backgroundColor: DISCOVERY, opacity: '0.4' };
    case 'missing':
      return { opacity: '0.7', textDecoration: 'underline dotted' };
  }
}

function regionOptions(look: RegionLook): vscode.DecorationRenderOptions {
  const color = new vscode.ThemeColor(REGION_THEME_COLORS[look]);
  return look === 'other'
    ? { backgroundColor: color }
    : { backgroundColor: color, overviewRulerColor: color, overviewRulerLane: vscode.OverviewRulerLane.Left };
}

const toRange = (r: Range) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

/** What Groundwork last drew in an editor, by look: for the tests, through the extension's API. */
export interface DrawnAnnotations {
  readonly notes: Record<NoteLook, number>;
  readonly regions: Record<RegionLook, number>;
  readonly markers: number;
}

export class AnnotationDecorations extends Disposable {
  private readonly notes: Record<NoteLook, vscode.TextEditorDecorationType>;
  private readonly regions: Record<RegionLook, vscode.TextEditorDecorationType>;
  private readonly markers: vscode.TextEditorDecorationType;
  private readonly drawn = new WeakMap<vscode.TextEditor, DrawnAnnotations>();

  constructor() {
    super();
    const make = (options: vscode.DecorationRenderOptions) => {
      const type = vscode.window.createTextEditorDecorationType({
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        ...options,
      });
      this._register(toDisposable(() => type.dispose()));
      return type;
    };
    this.notes = Object.fromEntries(NOTE_LOOKS.map((look) => [look, make(noteOptions(look))])) as Record<
      NoteLook,
      vscode.TextEditorDecorationType
    >;
    this.regions = Object.fromEntries(
      [...REGION_COLORS, 'other' as const].map((look) => [look, make(regionOptions(look))]),
    ) as Record<RegionLook, vscode.TextEditorDecorationType>;
    this.markers = make({ opacity: '0.45' });
  }

  /** Draws `look` in `editor`, replacing what was drawn before. */
  draw(editor: vscode.TextEditor, look: AnnotationLook): void {
    for (const name of NOTE_LOOKS) editor.setDecorations(this.notes[name], look.notes[name].map(toRange));
    for (const name of Object.keys(this.regions) as RegionLook[])
      editor.setDecorations(this.regions[name], look.regions[name].map(toRange));
    editor.setDecorations(this.markers, look.markers.map(toRange));
    const count = <K extends string>(groups: Record<K, Range[]>) =>
      Object.fromEntries(Object.entries<Range[]>(groups).map(([k, v]) => [k, v.length])) as Record<K, number>;
    this.drawn.set(editor, { notes: count(look.notes), regions: count(look.regions), markers: look.markers.length });
  }

  /** Removes everything drawn in `editor`. */
  clear(editor: vscode.TextEditor): void {
    for (const type of [...Object.values(this.notes), ...Object.values(this.regions), this.markers])
      editor.setDecorations(type, []);
    this.drawn.delete(editor);
  }

  /** What was last drawn in `editor`, or undefined. */
  drawnIn(editor: vscode.TextEditor): DrawnAnnotations | undefined {
    return this.drawn.get(editor);
  }
}
