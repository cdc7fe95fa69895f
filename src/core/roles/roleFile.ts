// Reads one role file: `---`, YAML fields, `---`, the prompt. Role files may come from a cloned
// repository (`.groundwork/roles/`), so the YAML is read defensively: a size cap before parsing,
// few aliases (a "billion laughs" file fails at once instead of expanding), one document only.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { utf8Length } from '../prompt/cap';
import { checkRoleFields, roleProblem } from './roleSchema';
import type { FieldValue, Role, RoleProblem } from './roleSchema';

/** A role prompt is a few KB; the cap leaves room while refusing a file that is something else. */
export const ROLE_FILE_MAX_BYTES = 64 * 1024;
/** Roles need no aliases; a few are allowed for a shared tool list, far too few to blow up. */
export const ROLE_MAX_ALIASES = 10;

export type ParsedRole = { role: Role; errors?: undefined } | { role?: undefined; errors: RoleProblem[] };

/** YAML errors noticed only after the construct that caused them (see `locate`). */
const UNTERMINATED = new Set(['MISSING_CHAR', 'BAD_INDENT']);
const FRONTMATTER_FENCE = /^---[ \t]*$/;
const SHAPE =
  "a role file starts with a line '---', then its fields (name, description, tools, model, permissionMode, maxTurns), then a line '---', then the prompt";

/** The message for a file over the cap, the same whether the reader or the parser finds it. */
export function tooLargeMessage(bytes: number | undefined, maxBytes: number): string {
  const size = bytes === undefined ? 'larger than' : `${bytes} bytes, over`;
  return `the file is ${size} the cap of ${maxBytes} bytes for a role; a role prompt needs a few KB — shorten it`;
}

/**
 * Parses and checks the role file shown to people as `file` (e.g. `roles/build-qa.md`); its name
 * without `.md` is the name the role must declare. Returns the role, or every problem found, each
 * naming the file, the line and the field.
 */
export function parseRoleFile(file: string, text: string, maxBytes: number = ROLE_FILE_MAX_BYTES): ParsedRole {
  const fail = (message: string, where: { line?: number; field?: string } = {}): ParsedRole => ({
    errors: [roleProblem(file, message, where)],
  });
  const bytes = utf8Length(text);
  if (bytes > maxBytes) return fail(tooLargeMessage(bytes, maxBytes), { line: 1 });

  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (!FRONTMATTER_FENCE.test(lines[0] ?? '')) return fail(`no frontmatter: ${SHAPE}`, { line: 1 });
  const close = lines.findIndex((l, i) => i > 0 && FRONTMATTER_FENCE.test(l));
  if (close < 0) return fail(`the frontmatter has no closing '---' line: ${SHAPE}`, { line: 1 });
  // File line of a 1-based line of the YAML text, which starts after the opening '---'.
  const fileLine = (yamlLine: number) => Math.min(yamlLine + 1, close + 1);

  const yamlText = lines.slice(1, close).join('\n');
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const lineOf = (offset: number) => fileLine(lineCounter.linePos(offset).line);
  const yamlProblems = [...doc.errors, ...doc.warnings].map((e) => {
    // The parser's wording for this one names neither the key nor the fix.
    const message = e.code === 'DUPLICATE_KEY' ? 'is set twice; keep one of them' : `YAML: ${firstLine(e.message)}`;
    return roleProblem(file, message, locate(doc, e.pos[0], lineOf, UNTERMINATED.has(e.code)));
  });
  if (yamlProblems.length > 0) return { errors: yamlProblems };

  const contents = doc.contents;
  if (contents === null) return fail(`the frontmatter is empty: ${SHAPE}`, { line: 1 });
  if (!isMap(contents)) {
    return fail('the frontmatter must be fields such as `name: build-qa`, not a list or a single value', {
      line: lineOf(contents.range?.[0] ?? 0),
    });
  }

  let values: Record<string, unknown>;
  try {
    values = doc.toJS({ maxAliasCount: ROLE_MAX_ALIASES }) as Record<string, unknown>;
  } catch (err) {
    const alias = firstAliasOffset(doc);
    const where = alias === undefined ? { line: 1 } : locate(doc, alias, lineOf);
    const aliases = err instanceof ReferenceError;
    return fail(
      aliases
        ? `YAML aliases expand too much (more than ${ROLE_MAX_ALIASES} uses); a role file needs no aliases — write the values out`
        : `YAML: ${firstLine(err instanceof Error ? err.message : String(err))}`,
      where,
    );
  }

  const fields = new Map<string, FieldValue>();
  const keyProblems: RoleProblem[] = [];
  for (const pair of contents.items) {
    const keyStart = (pair.key as YamlNode | null)?.range?.[0] ?? 0;
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string') {
      keyProblems.push(
        roleProblem(file, 'field names are plain words such as name or tools', { line: lineOf(keyStart) }),
      );
      continue;
    }
    const field: FieldValue = { value: Object.hasOwn(values, key) ? values[key] : undefined, line: lineOf(keyStart) };
    if (isSeq(pair.value)) {
      field.itemLines = pair.value.items.map((item) => lineOf((item as YamlNode | null)?.range?.[0] ?? keyStart));
    }
    fields.set(key, field);
  }

  const checked = checkRoleFields(file, fields, expectedNameOf(file), 1);
  const problems = [...keyProblems, ...(checked.ok ? [] : checked.problems)];
  const prompt = lines
    .slice(close + 1)
    .join('\n')
    .trim();
  if (prompt === '') {
    problems.push(
      roleProblem(file, "the prompt is empty; write the role's system prompt after the closing '---'", {
        line: close + 1,
      }),
    );
  }
  if (problems.length > 0 || !checked.ok) return { errors: problems };
  return { role: { ...checked.value, prompt } };
}

/** `roles/build-qa.md` → `build-qa`. */
export function expectedNameOf(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return base.endsWith('.md') ? base.slice(0, -'.md'.length) : base;
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? message;
}

/**
 * Where a YAML problem at `offset` is, for the message: its line and the top-level field it falls
 * in. An unterminated quote or bracket is only noticed where the next field starts (or at the
 * end), so for those the field that opened it is named, at the line where it starts.
 */
function locate(
  doc: Document,
  offset: number,
  lineOf: (offset: number) => number,
  unterminated = false,
): { line: number; field?: string } {
  const contents = doc.contents;
  if (!isMap(contents)) return { line: lineOf(offset) };
  let before: { line: number; field?: string } = { line: lineOf(offset) };
  for (const pair of contents.items as Pair[]) {
    const key = pair.key as YamlNode | null;
    const start = key?.range?.[0];
    if (start === undefined || start > offset) break;
    const field = isScalar(key) && typeof key.value === 'string' ? key.value : undefined;
    const end = (pair.value as YamlNode | null)?.range?.[2] ?? key?.range?.[2] ?? start;
    if (unterminated && offset <= end) return { line: lineOf(start), ...(field === undefined ? {} : { field }) };
    before = { line: lineOf(offset), ...(field === undefined ? {} : { field }) };
  }
  return before;
}

function firstAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}
