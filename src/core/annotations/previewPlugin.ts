// The annotations of a spec in VS Code's markdown preview, as a markdown-it plugin:
// `md.use(annotationsPreview, { lookup })` from the extension's `extendMarkdownIt`. Discovery notes
// become a yellow span whose class says the case's status and whose tooltip says the case; regions a
// span (or, when their markers stand on lines of their own around whole blocks, a div) in their
// colour. The markers themselves show nothing. Pure: markdown-it is typed here as little as the
// plugin uses, and never imported (the extension gets the preview's own instance).
//
// Where markers are met:
// - inside a paragraph, an inline rule (before html_inline) reads each marker that parseAnnotations
//   finds closed in the paragraph's text. A note becomes one token whose content is its text,
//   unescaped (annotationText.ts) and then escaped as HTML: never markup, never markdown;
// - a line that starts with `<!--` is an HTML block to markdown-it. A core rule turns such a block
//   that starts with a marker and holds a closed annotation into a paragraph, so the inline rule
//   reads it; a block that is one region opening marker, or one closing marker, wraps the blocks
//   between it and its partner at the same depth in a div;
// - markers left unbalanced stay what they are: HTML comments, which show nothing.
// Markers in fenced or inline code are code, as the parser says. No attribute is written without
// escaping; no script, style, event handler or URL is ever written.
import type { DiscoveryCase } from '../cases/caseRecord';
import { visibleText } from '../visibleText';
import { parseAnnotations } from './annotationParser';
import type { Annotation, AnnotationParse } from './annotationParser';
import { unescapeNoteContent } from './annotationText';
import { readMarker } from './markerSyntax';

/** The part of a markdown-it Token the plugin reads and writes. */
export interface MdToken {
  type: string;
  tag: string;
  nesting: number;
  level: number;
  content: string;
  map: [number, number] | null;
  children: MdToken[] | null;
  block: boolean;
  meta: unknown;
}

type TokenNesting = 1 | 0 | -1;

interface MdInlineState {
  src: string;
  pos: number;
  posMax: number;
  push(type: string, tag: string, nesting: TokenNesting): MdToken;
}

interface MdCoreState {
  tokens: MdToken[];
  Token: new (type: string, tag: string, nesting: TokenNesting) => MdToken;
}

interface MdRuler<Rule> {
  before(beforeName: string, ruleName: string, fn: Rule): void;
  after(afterName: string, ruleName: string, fn: Rule): void;
}

type MdRenderRule = (tokens: MdToken[], idx: number, options: unknown, env: unknown, self: unknown) => string;

/** The part of a MarkdownIt instance the plugin uses. */
export interface MarkdownItLike {
  inline: { ruler: MdRuler<(state: MdInlineState, silent: boolean) => boolean> };
  core: { ruler: MdRuler<(state: MdCoreState) => void> };
  /** Render rules by token type; `object` so that markdown-it's own Token type need not be repeated here. */
  renderer: { rules: object };
}

export interface AnnotationsPreviewOptions {
  /** The workspace's case with this id, read when the preview renders; absent: every note's case is unknown. */
  readonly lookup?: (caseId: string) => DiscoveryCase | undefined;
}

/** The region colours the stylesheet knows; any other gets the neutral class. */
export const KNOWN_COLORS: readonly string[] = ['green', 'yellow', 'red', 'blue', 'orange', 'purple'];
/** How much of a case's content its tooltip shows. */
const TITLE_CONTENT_CHARS = 200;

const DISCOVERY = 'groundwork_discovery';
const REGION_OPEN = 'groundwork_region_open';
const REGION_CLOSE = 'groundwork_region_close';
const BLOCK_OPEN = 'groundwork_region_block_open';
const BLOCK_CLOSE = 'groundwork_region_block_close';

interface NoteMeta {
  readonly caseId: string;
  readonly task: string;
  readonly text: string;
}

interface RegionMeta {
  readonly color: string;
  readonly task: string;
}

/** Text as HTML text or an attribute value: nothing in it can end the value or start a tag. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A colour name as part of a class: lower case, [a-z0-9-] only; a known colour's, or 'other'. */
export function colorClass(color: string): string {
  const name = color.toLowerCase().replace(/[^a-z0-9-]/g, '');
  return `groundwork-color-${KNOWN_COLORS.includes(name) ? name : 'other'}`;
}

/** The status class of a note's case: its status, or unknown when the workspace lacks it. */
function statusOf(found: DiscoveryCase | undefined): string {
  return found?.status ?? 'unknown';
}

/** What hovering a note says: the case, its status, impact and scope, and how its content starts. */
export function noteTitle(caseId: string, found: DiscoveryCase | undefined): string {
  if (found === undefined) return `${caseId}: not in this workspace's discoveries`;
  const oneLine = found.content.replace(/\s+/g, ' ').trim();
  const chars = [...oneLine];
  const start = chars.length > TITLE_CONTENT_CHARS ? `${chars.slice(0, TITLE_CONTENT_CHARS).join('')}…` : oneLine;
  const { impact, scope } = found.metadata;
  return visibleText(`${caseId} · ${found.status} · ${impact} impact · ${scope}`) + '\n' + visibleText(start);
}

function regionAttributes(meta: RegionMeta): string {
  const title = visibleText(`${meta.task} · ${meta.color}`);
  return `class="groundwork-annotation groundwork-region ${colorClass(meta.color)}" title="${escapeHtml(title)}"`;
}

/** The closed annotations of one text by where their markers start, parsed once per text. */
interface MarkerIndex {
  readonly parse: AnnotationParse;
  /** Opening marker's offset → the annotation. */
  readonly opens: Map<number, Annotation>;
  /** A region's closing marker's offset → the region's index, for the regions opened as spans. */
  readonly closes: Map<number, number>;
  /** The regions whose opening span was written, by index. */
  readonly opened: Set<number>;
}

function indexOf(state: MdInlineState): MarkerIndex {
  const parse = parseAnnotations(state.src);
  const opens = new Map<number, Annotation>();
  const closes = new Map<number, number>();
  parse.annotations.forEach((a, i) => {
    opens.set(a.offsets.start, a);
    if (a.kind === 'region') closes.set(a.offsets.contentEnd, i);
  });
  return { parse, opens, closes, opened: new Set() };
}

/** A note's text: its content without the markers of annotations inside it, unescaped. */
function noteText(src: string, note: Annotation, parse: AnnotationParse): string {
  const cuts: [number, number][] = [];
  for (const inner of parse.annotations) {
    if (inner.offsets.start < note.offsets.contentStart || inner.offsets.end > note.offsets.contentEnd) continue;
    cuts.push([inner.offsets.start, inner.offsets.contentStart], [inner.offsets.contentEnd, inner.offsets.end]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let text = '';
  let at = note.offsets.contentStart;
  for (const [start, end] of cuts) {
    if (start < at) continue;
    text += src.slice(at, start);
    at = end;
  }
  return unescapeNoteContent(text + src.slice(at, note.offsets.contentEnd));
}

/** Whether `text`, spaces aside, starts with an annotation marker. */
function startsWithMarker(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('<!--@ax') || t.startsWith('<!--/@ax');
}

/** What an HTML block that is one marker and nothing else says: a region's opening, a closing, or neither. */
function loneMarker(content: string): { kind: 'open'; meta: RegionMeta } | { kind: 'close' } | undefined {
  const t = content.trim();
  if (!t.startsWith('<!--') || !t.endsWith('-->') || t.indexOf('-->') !== t.length - 3) return undefined;
  const marker = readMarker(t.slice(4, -3));
  if (marker.kind === 'close') return { kind: 'close' };
  return marker.kind === 'region' ? { kind: 'open', meta: { color: marker.color, task: marker.task } } : undefined;
}

/** The block tokens with annotation blocks made into paragraphs, and lone region markers paired into divs. */
function blockRule(state: MdCoreState): void {
  const tokens = state.tokens;
  const out: MdToken[] = [];
  const stack: { at: number; depth: number }[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (token.nesting < 0) {
      depth--;
      // A container ends: the openings inside it found no partner there.
      while (stack.length > 0 && (stack[stack.length - 1]?.depth ?? 0) > depth) stack.pop();
    }
    if (token.type === 'html_block' && startsWithMarker(token.content)) {
      const lone = loneMarker(token.content);
      if (lone?.kind === 'open') {
        stack.push({ at: out.length, depth });
        out.push(token); // the comment until a partner is found
        continue;
      }
      if (lone?.kind === 'close') {
        const partner = stack[stack.length - 1];
        const opening = partner !== undefined && partner.depth === depth ? out[partner.at] : undefined;
        if (partner !== undefined && opening !== undefined) {
          stack.pop();
          const meta = loneMarker(opening.content);
          const open = new state.Token(BLOCK_OPEN, 'div', 1);
          Object.assign(open, {
            level: opening.level,
            map: opening.map,
            block: true,
            meta: meta?.kind === 'open' ? meta.meta : undefined,
          });
          out[partner.at] = open;
          const close = new state.Token(BLOCK_CLOSE, 'div', -1);
          Object.assign(close, { level: token.level, map: token.map, block: true });
          out.push(close);
          continue;
        }
      } else if (readableAsParagraph(token.content)) {
        out.push(...paragraph(state, token));
        continue;
      }
    }
    out.push(token);
    if (token.nesting > 0) depth++;
  }
  state.tokens = out;
}

/**
 * Whether an HTML block that starts with a marker may be read as a paragraph: it holds a closed
 * annotation, and outside its notes and markers no `<` at all. Raw HTML hides what a paragraph
 * would show (a tag in a comment left open, or in an attribute, is inert in the block and live in
 * a paragraph), so a block with any other HTML stays raw: its markers then show nothing.
 */
function readableAsParagraph(content: string): boolean {
  const parse = parseAnnotations(content);
  if (parse.annotations.length === 0) return false;
  let rest = '';
  let at = 0;
  const cuts: [number, number][] = [];
  for (const a of parse.annotations) {
    if (a.kind === 'discovery')
      cuts.push([a.offsets.start, a.offsets.end]); // shown as text, never markup
    else cuts.push([a.offsets.start, a.offsets.contentStart], [a.offsets.contentEnd, a.offsets.end]);
  }
  cuts.sort((x, y) => x[0] - y[0]);
  for (const [start, end] of cuts) {
    if (start >= at) rest += content.slice(at, start);
    at = Math.max(at, end);
  }
  rest += content.slice(at);
  return !rest.includes('<');
}

/** An HTML block as a paragraph of its text, which the inline pass then reads. */
function paragraph(state: MdCoreState, block: MdToken): MdToken[] {
  const open = new state.Token('paragraph_open', 'p', 1);
  const inline = new state.Token('inline', '', 0);
  const close = new state.Token('paragraph_close', 'p', -1);
  Object.assign(open, { level: block.level, map: block.map, block: true });
  Object.assign(inline, {
    level: block.level + 1,
    map: block.map,
    block: true,
    content: block.content.trim(),
    children: [],
  });
  Object.assign(close, { level: block.level, block: true });
  return [open, inline, close];
}

/**
 * Every region span closed in the paragraph it opens in. The spans are tokens of nesting 0 (they
 * must not disturb markdown-it's own nesting, a link's for one), so a closing marker read where
 * its opening one was not (in an image's text, which is parsed apart) could leave a span open.
 */
function balanceRule(state: MdCoreState): void {
  for (const token of state.tokens) {
    const children = token.type === 'inline' ? token.children : null;
    if (children === null || !children.some((c) => c.type === REGION_OPEN || c.type === REGION_CLOSE)) continue;
    let open = 0;
    const kept = children.filter((c) => {
      if (c.type === REGION_OPEN) open++;
      else if (c.type === REGION_CLOSE) {
        if (open === 0) return false;
        open--;
      }
      return true;
    });
    for (; open > 0; open--) kept.push(new state.Token(REGION_CLOSE, 'span', 0));
    token.children = kept;
  }
}

/**
 * The markdown-it plugin. `lookup` is called as each note renders, so a re-render shows the
 * statuses as they are then.
 */
export function annotationsPreview(md: MarkdownItLike, options: AnnotationsPreviewOptions = {}): void {
  const lookup = options.lookup ?? (() => undefined);
  // The inline rule runs at many places of one paragraph, and of the texts read apart inside it (an
  // image's alt text has a state of its own): each text is parsed once, whatever the order.
  const indexes = new WeakMap<MdInlineState, MarkerIndex>();
  const indexFor = (state: MdInlineState): MarkerIndex => {
    let found = indexes.get(state);
    if (found === undefined) indexes.set(state, (found = indexOf(state)));
    return found;
  };

  md.inline.ruler.before('html_inline', 'groundwork_annotation', (state, silent) => {
    const { src, pos } = state;
    if (src.charCodeAt(pos) !== 0x3c || !(src.startsWith('<!--@ax', pos) || src.startsWith('<!--/@ax', pos)))
      return false;
    const found = indexFor(state);
    const annotation = found.opens.get(pos);
    if (annotation !== undefined) {
      // Only an annotation wholly in the span being read (a link's text is read on its own).
      if (annotation.offsets.end > state.posMax) return false;
      if (annotation.kind === 'discovery') {
        if (!silent) {
          const token = state.push(DISCOVERY, 'span', 0);
          token.meta = {
            caseId: annotation.caseId,
            task: annotation.task,
            text: noteText(src, annotation, found.parse),
          } satisfies NoteMeta;
        }
        state.pos = annotation.offsets.end;
        return true;
      }
      if (!silent) {
        state.push(REGION_OPEN, 'span', 0).meta = {
          color: annotation.color,
          task: annotation.task,
        } satisfies RegionMeta;
        found.opened.add(found.parse.annotations.indexOf(annotation));
      }
      state.pos = annotation.offsets.contentStart;
      return true;
    }
    const closing = found.closes.get(pos);
    if (closing === undefined || !found.opened.has(closing)) return false;
    if (!silent) {
      state.push(REGION_CLOSE, 'span', 0);
      found.opened.delete(closing);
    }
    state.pos = pos + '<!--/@ax-->'.length;
    return true;
  });

  md.core.ruler.after('block', 'groundwork_annotation_blocks', blockRule);
  md.core.ruler.after('inline', 'groundwork_annotation_balance', balanceRule);

  const rules = md.renderer.rules as Record<string, MdRenderRule | undefined>;
  rules[DISCOVERY] = (tokens, idx) => {
    const meta = tokens[idx]?.meta as NoteMeta;
    const found = lookup(meta.caseId);
    const attrs = `class="groundwork-annotation groundwork-discovery groundwork-status-${statusOf(found)}" title="${escapeHtml(noteTitle(meta.caseId, found))}"`;
    return `<span ${attrs}>${escapeHtml(meta.text)}</span>`;
  };
  rules[REGION_OPEN] = (tokens, idx) => `<span ${regionAttributes(tokens[idx]?.meta as RegionMeta)}>`;
  rules[REGION_CLOSE] = () => '</span>';
  rules[BLOCK_OPEN] = (tokens, idx) => `<div ${regionAttributes(tokens[idx]?.meta as RegionMeta)}>\n`;
  rules[BLOCK_CLOSE] = () => '</div>\n';
}
