// The hover on a spec annotation and the count above each annotated region. A discovery note's
// hover shows its case (content as text, never markdown: it is an agent's words), its status,
// impact, scope, task, agent and dates, and links to Groundwork's own review commands only: the
// MarkdownString trusts exactly those (isTrusted.enabledCommands), so a link planted in a spec or
// a case can run nothing.
import * as vscode from 'vscode';
import { annotationAt, notesOf } from '../../core/annotations/annotationLook';
import type { AnnotationParse, DiscoveryAnnotation, RegionAnnotation } from '../../core/annotations/annotationParser';
import { unescapeNoteContent } from '../../core/annotations/annotationText';
import { evidenceAfter } from '../../core/annotations/regionEvidence';
import type { Range } from '../../core/annotations/textPositions';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import { caseRow } from '../cases/caseRows';
import { caseWords } from '../cases/casesWords';
import { Disposable } from '../base/lifecycle';

/** The commands a hover may link to. */
export const HOVER_COMMANDS = [
  'groundwork.cases.validate',
  'groundwork.cases.markOutdated',
  'groundwork.cases.promote',
  'groundwork.cases.reveal',
] as const;

const MARKDOWN = { language: 'markdown' };

/** What the hover and the lenses need of the feature. */
export interface AnnotationSource {
  parseOf(doc: vscode.TextDocument): AnnotationParse | undefined;
  readonly cases: { readonly ready: boolean; get(id: string): DiscoveryCase | undefined };
}

const toRange = (r: Range) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
const link = (title: string, command: (typeof HOVER_COMMANDS)[number], id: string) =>
  `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([id]))})`;

export class AnnotationHovers extends Disposable implements vscode.HoverProvider, vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(
    private readonly source: AnnotationSource,
    parsed: vscode.Event<void>,
  ) {
    super();
    this.onDidChangeCodeLenses = parsed;
    this._register(vscode.languages.registerHoverProvider(MARKDOWN, this));
    this._register(vscode.languages.registerCodeLensProvider(MARKDOWN, this));
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const parse = this.source.parseOf(doc);
    const a = parse && annotationAt(parse, position);
    if (a === undefined || parse === undefined) return undefined;
    return new vscode.Hover(
      a.kind === 'discovery'
        ? this.noteHover(doc, a)
        : regionHover(a, notesOf(parse, a.task).length, evidenceAfter(doc.getText(), a)),
      toRange(a.range),
    );
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const parse = this.source.parseOf(doc);
    if (parse === undefined) return [];
    const lenses: vscode.CodeLens[] = [];
    const seen = new Set<string>();
    for (const a of parse.annotations) {
      if (a.kind !== 'region' || seen.has(a.task)) continue;
      seen.add(a.task);
      const notes = notesOf(parse, a.task);
      if (notes.length === 0) continue;
      const stale = this.source.cases.ready
        ? notes.filter((n) => this.source.cases.get(n.caseId)?.status !== 'active').length
        : 0;
      const title =
        notes.length === 1
          ? vscode.l10n.t('$(lightbulb) 1 discovery for {0}', a.task)
          : vscode.l10n.t('$(lightbulb) {0} discoveries for {1}', notes.length, a.task);
      lenses.push(
        new vscode.CodeLens(toRange(a.openRange), {
          title: stale > 0 ? `${title} ${vscode.l10n.t('({0} not active)', stale)}` : title,
          tooltip: vscode.l10n.t('Go to the discovery notes of {0}', a.task),
          command: 'groundwork.annotations.goToNotes',
          arguments: [doc.uri, a.task],
        }),
      );
    }
    return lenses;
  }

  private noteHover(doc: vscode.TextDocument, a: DiscoveryAnnotation): vscode.MarkdownString {
    const md = new vscode.MarkdownString('', true);
    md.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
    const c = this.source.cases.get(a.caseId);
    md.appendMarkdown(`$(lightbulb) **${vscode.l10n.t('Discovery')}** `);
    md.appendText(a.caseId);
    md.appendMarkdown('\n\n');
    if (c === undefined || c.status === 'deleted') {
      md.appendText(unescapeNoteContent(doc.getText(toRange(a.contentRange))));
      md.appendMarkdown('\n\n');
      md.appendText(
        !this.source.cases.ready
          ? vscode.l10n.t('This workspace keeps no discoveries, or they are still being read.')
          : c === undefined
            ? vscode.l10n.t("{0} is not among this workspace's discoveries (.groundwork/cases.jsonl).", a.caseId)
            : vscode.l10n.t('{0} was deleted.', a.caseId),
      );
      return md;
    }
    const [content = '', ...facts] = caseRow(c, caseWords(), Date.now(), vscode.env.language).tooltip;
    md.appendText(content);
    md.appendMarkdown('\n\n');
    for (const line of facts) {
      md.appendText(line);
      md.appendMarkdown('  \n');
    }
    const actions = [
      ...(!c.metadata.validated ? [link(vscode.l10n.t('Validate'), 'groundwork.cases.validate', c.id)] : []),
      ...(c.status === 'active' ? [link(vscode.l10n.t('Mark Outdated'), 'groundwork.cases.markOutdated', c.id)] : []),
      ...(c.status === 'active' && c.metadata.scope === 'local'
        ? [link(vscode.l10n.t('Promote to Global'), 'groundwork.cases.promote', c.id)]
        : []),
      link(vscode.l10n.t('Open in Discoveries'), 'groundwork.cases.reveal', c.id),
    ];
    md.appendMarkdown(`\n${actions.join(' · ')}`);
    return md;
  }
}

/**
 * `evidence`, what a build's final verification wrote after a region, into `md`: its code spans (the
 * test names, regionEvidence.ts) as code, the rest as text. A span is one as CommonMark reads it (a
 * run of backticks closed by the next run as long); one holding `$(` stays text, as no theme icon
 * may show in it.
 */
function appendEvidence(md: vscode.MarkdownString, evidence: string): void {
  let from = 0;
  for (let at = evidence.indexOf('`'); at >= 0;) {
    const fence = /^`+/.exec(evidence.slice(at))![0];
    let close = evidence.indexOf(fence, at + fence.length);
    while (close >= 0 && (evidence[close - 1] === '`' || evidence[close + fence.length] === '`'))
      close = evidence.indexOf(fence, close + 1);
    if (close < 0) {
      at = evidence.indexOf('`', at + fence.length);
      continue;
    }
    const span = evidence.slice(at, close + fence.length);
    if (!span.includes('$(')) {
      md.appendText(evidence.slice(from, at));
      md.appendMarkdown(span);
      from = close + fence.length;
    }
    at = evidence.indexOf('`', close + fence.length);
  }
  md.appendText(evidence.slice(from));
}

/** `evidence`: what a build's final verification wrote after the region (its tests, or that none names it). */
function regionHover(a: RegionAnnotation, notes: number, evidence: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  // Once a build's final verification wrote its evidence, the colour says what its tests found.
  const meaning: Record<string, string> =
    evidence === undefined
      ? { green: vscode.l10n.t('implemented'), blue: vscode.l10n.t('planned') }
      : {
          green: vscode.l10n.t('verified'),
          blue: vscode.l10n.t('no passing test'),
          red: vscode.l10n.t('failed'),
        };
  md.appendMarkdown(`$(symbol-color) **${vscode.l10n.t('Spec region')}** `);
  md.appendText(
    `${a.task} · ${a.color}${meaning[a.color.toLowerCase()] ? ` (${meaning[a.color.toLowerCase()]})` : ''}`,
  );
  md.appendMarkdown('\n\n');
  if (evidence !== undefined) {
    md.appendMarkdown('$(beaker) ');
    appendEvidence(md, evidence);
    md.appendMarkdown('\n\n');
  }
  md.appendText(
    notes === 0
      ? vscode.l10n.t('No discovery notes for this task.')
      : notes === 1
        ? vscode.l10n.t('1 discovery note for this task.')
        : vscode.l10n.t('{0} discovery notes for this task.', notes),
  );
  return md;
}
