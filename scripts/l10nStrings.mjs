// What the extension shows at run time, in English: the literal first arguments of
// vscode.l10n.t(…) in src/vscode/**/*.ts and the values of PANEL_STRINGS. Shared by
// scripts/l10nExport.mjs (writes l10n/bundle.l10n.json) and test/unit/l10n (checks the bundles).
//
// TypeScript 7 has no JavaScript parser API, so this reads the sources with a small lexer that
// knows comments, strings, template literals (with ${…} inside) and regular expressions: enough
// to find calls without being fooled by a quote in a regex or a call in a comment.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
/** Languages shipped besides English. VS Code's Brazilian Portuguese is `pt-br`; `pt` carries the same text. */
export const LANGUAGES = ['es', 'pt-br', 'pt', 'fr', 'de', 'it', 'nl', 'ru'];
export const SOURCE_DIR = 'src/vscode';
export const PANEL_STRINGS_FILE = 'src/shared/panelStrings.ts';
export const BUNDLE_DIR = 'l10n';

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * Tokens of a TypeScript text, comments dropped. String tokens carry their decoded value.
 * A template literal is one `template` token (raw text, `substitutions` flag), followed by the
 * tokens of the expressions inside its ${…}.
 * @returns {Array<{type: 'ident'|'punct'|'string'|'template'|'regex'|'number', value: string, line: number, substitutions?: boolean}>}
 */
export function tokenize(text) {
  const tokens = [];
  let i = 0;
  let line = 1;
  const n = text.length;

  const fail = (what) => {
    throw new Error(`l10n scan: ${what} at line ${line}`);
  };
  const prevSignificant = () => tokens[tokens.length - 1];
  const regexAllowed = () => {
    const p = prevSignificant();
    if (!p) return true;
    if (p.type === 'punct') return ![')', ']', '}'].includes(p.value);
    if (p.type === 'ident') return KEYWORDS_BEFORE_EXPRESSION.has(p.value);
    return false;
  };

  function readString(quote) {
    const startLine = line;
    let out = '';
    i++; // opening quote
    while (true) {
      if (i >= n) fail('unterminated string');
      const c = text[i];
      if (c === quote) {
        i++;
        return { type: 'string', value: out, line: startLine };
      }
      if (c === '\n') fail('line break in string');
      if (c === '\\') {
        const [decoded, len] = escape(i);
        out += decoded;
        i += len;
        continue;
      }
      out += c;
      i++;
    }
  }

  /** The escape sequence at text[at] === '\\': [decoded text, length including the backslash]. */
  function escape(at) {
    const e = text[at + 1];
    const simple = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
    if (e === undefined) fail('backslash at end of text');
    if (e in simple && !(e === '0' && /[0-9]/.test(text[at + 2] ?? ''))) return [simple[e], 2];
    if (e === '\r' && text[at + 2] === '\n') {
      line++;
      return ['', 3];
    }
    if (e === '\n' || e === '\u2028' || e === '\u2029') {
      line++;
      return ['', 2];
    }
    if (e === 'x') {
      const hex = text.slice(at + 2, at + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail('bad \\x escape');
      return [String.fromCharCode(parseInt(hex, 16)), 4];
    }
    if (e === 'u') {
      if (text[at + 2] === '{') {
        const close = text.indexOf('}', at + 3);
        const hex = text.slice(at + 3, close);
        if (close < 0 || !/^[0-9a-fA-F]+$/.test(hex)) fail('bad \\u{} escape');
        return [String.fromCodePoint(parseInt(hex, 16)), close - at + 1];
      }
      const hex = text.slice(at + 2, at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
      return [String.fromCharCode(parseInt(hex, 16)), 6];
    }
    return [e, 2];
  }

  function readTemplate() {
    const startLine = line;
    const token = { type: 'template', value: '', line: startLine, substitutions: false };
    tokens.push(token);
    let raw = '';
    i++; // opening backtick
    while (true) {
      if (i >= n) fail('unterminated template literal');
      const c = text[i];
      if (c === '`') {
        i++;
        token.value = raw;
        return;
      }
      if (c === '\\') {
        raw += text.slice(i, i + 2);
        if (text[i + 1] === '\n') line++;
        i += 2;
        continue;
      }
      if (c === '$' && text[i + 1] === '{') {
        token.substitutions = true;
        raw += '${…}';
        i += 2;
        lexCode(true); // the expression, up to its closing brace
        continue;
      }
      if (c === '\n') line++;
      raw += c;
      i++;
    }
  }

  function readRegex() {
    const startLine = line;
    let inClass = false;
    let raw = '/';
    i++;
    while (true) {
      if (i >= n || text[i] === '\n') fail('unterminated regular expression');
      const c = text[i];
      raw += c;
      i++;
      if (c === '\\') {
        raw += text[i];
        i++;
      } else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    while (i < n && /[a-z]/i.test(text[i])) raw += text[i++];
    tokens.push({ type: 'regex', value: raw, line: startLine });
  }

  /** Lexes code; inside a template substitution, stops after the `}` that closes it. */
  function lexCode(inSubstitution) {
    let depth = 0;
    while (i < n) {
      const c = text[i];
      if (c === '\n') {
        line++;
        i++;
      } else if (/\s/.test(c)) i++;
      else if (c === '/' && text[i + 1] === '/') {
        while (i < n && text[i] !== '\n') i++;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated comment');
        for (let k = i; k < end; k++) if (text[k] === '\n') line++;
        i = end + 2;
      } else if (c === '"' || c === "'") tokens.push(readString(c));
      else if (c === '`') readTemplate();
      else if (c === '/' && regexAllowed()) readRegex();
      else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
        let j = i + 1;
        while (j < n && /[\w$\u0080-\uffff]/.test(text[j])) j++;
        tokens.push({ type: 'ident', value: text.slice(i, j), line });
        i = j;
      } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
        let j = i + 1;
        while (j < n && /[\w.]/.test(text[j])) j++;
        tokens.push({ type: 'number', value: text.slice(i, j), line });
        i = j;
      } else {
        if (c === '{') depth++;
        if (c === '}') {
          if (inSubstitution && depth === 0) {
            i++;
            return;
          }
          depth--;
        }
        tokens.push({ type: 'punct', value: c, line });
        i++;
      }
    }
    if (inSubstitution) fail('unterminated template substitution');
  }

  lexCode(false);
  return tokens;
}

/**
 * The l10n.t(…) calls of one TypeScript text (`vscode.l10n.t`, or `l10n.t` after importing or
 * destructuring l10n). Literal first arguments are the strings; template literals and other
 * expressions cannot be extracted and are returned apart so they can be reported.
 * Adjacent literals joined with `+` count as one literal.
 */
export function extractCalls(text, file = '<text>') {
  const tokens = tokenize(text);
  const strings = [];
  const templates = [];
  const dynamic = [];
  for (let k = 0; k + 3 < tokens.length; k++) {
    const [a, dot, t, open] = tokens.slice(k, k + 4);
    if (!(
      a.type === 'ident' &&
      a.value === 'l10n' &&
      dot.value === '.' &&
      t.type === 'ident' &&
      t.value === 't' &&
      open.value === '('
    ))
      continue;
    let j = k + 4;
    const first = tokens[j];
    const where = { file, line: a.line };
    if (!first) continue;
    if (first.type === 'string') {
      let value = first.value;
      // 'a' + 'b' …
      while (tokens[j + 1]?.value === '+' && tokens[j + 2]?.type === 'string') {
        value += tokens[j + 2].value;
        j += 2;
      }
      const after = tokens[j + 1]?.value;
      if (after === ',' || after === ')') strings.push({ text: value, ...where });
      else dynamic.push({ ...where, expression: describe(tokens, k + 4) });
    } else if (first.type === 'template') {
      templates.push({ ...where, raw: '`' + first.value + '`', substitutions: first.substitutions });
    } else {
      dynamic.push({ ...where, expression: describe(tokens, k + 4) });
    }
  }
  return { strings, templates, dynamic };
}

/** A short rendering of the call's argument tokens, for reports. */
function describe(tokens, from) {
  let depth = 0;
  const parts = [];
  for (let j = from; j < tokens.length && parts.length < 12; j++) {
    const tk = tokens[j];
    if (['(', '[', '{'].includes(tk.value) && tk.type === 'punct') depth++;
    if ([')', ']', '}'].includes(tk.value) && tk.type === 'punct') {
      if (depth === 0) break;
      depth--;
    }
    if (depth === 0 && tk.value === ',' && tk.type === 'punct') break;
    parts.push(
      tk.type === 'string' ? JSON.stringify(tk.value) : tk.type === 'template' ? '`' + tk.value + '`' : tk.value,
    );
  }
  return parts.join('');
}

/**
 * The values of `PANEL_STRINGS = { key: 'text', … }` in a TypeScript text, in source order.
 * Throws when a value is not a string literal (or literals joined with +): a value the export
 * cannot see would ship untranslated.
 */
export function extractPanelStrings(text) {
  const tokens = tokenize(text);
  const at = tokens.findIndex(
    (t, k) =>
      t.type === 'ident' && t.value === 'PANEL_STRINGS' && tokens[k + 1]?.value === '=' && tokens[k + 2]?.value === '{',
  );
  if (at < 0) throw new Error('l10n scan: no `PANEL_STRINGS = {` found');
  const entries = [];
  let j = at + 3;
  while (tokens[j] && tokens[j].value !== '}') {
    const key = tokens[j];
    if (!['ident', 'string'].includes(key.type) || tokens[j + 1]?.value !== ':') {
      throw new Error(`l10n scan: PANEL_STRINGS entry at line ${key.line} is not \`key: 'text'\``);
    }
    j += 2;
    if (tokens[j]?.type !== 'string') {
      throw new Error(`l10n scan: PANEL_STRINGS.${key.value} (line ${key.line}) is not a string literal`);
    }
    let value = tokens[j].value;
    while (tokens[j + 1]?.value === '+' && tokens[j + 2]?.type === 'string') {
      value += tokens[j + 2].value;
      j += 2;
    }
    j++;
    if (tokens[j]?.value === ',') j++;
    else if (tokens[j]?.value !== '}') {
      throw new Error(`l10n scan: PANEL_STRINGS.${key.value} (line ${key.line}) is not a plain string literal`);
    }
    entries.push({ key: key.value, text: value, line: key.line });
  }
  if (!tokens[j]) throw new Error('l10n scan: PANEL_STRINGS is not closed');
  return entries;
}

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return tsFiles(p);
      return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
    })
    .sort();
}

/**
 * Every runtime string of the project, from the files on disk.
 * @returns {{ keys: string[], sources: Map<string, string[]>, templates: object[], dynamic: object[] }}
 *   keys sorted; sources maps each key to where it was found.
 */
export function collectRuntimeStrings(root = ROOT) {
  const sources = new Map();
  const add = (text, where) => {
    if (!sources.has(text)) sources.set(text, []);
    sources.get(text).push(where);
  };
  const templates = [];
  const dynamic = [];
  for (const file of tsFiles(join(root, SOURCE_DIR))) {
    const rel = relative(root, file).split(sep).join('/');
    const found = extractCalls(readFileSync(file, 'utf8'), rel);
    for (const s of found.strings) add(s.text, `${rel}:${s.line}`);
    templates.push(...found.templates);
    // l10n.t(PANEL_STRINGS[key]) is the panel table, extracted below.
    dynamic.push(...found.dynamic.filter((d) => !/^PANEL_STRINGS\[\w+\]$/.test(d.expression)));
  }
  for (const e of extractPanelStrings(readFileSync(join(root, PANEL_STRINGS_FILE), 'utf8'))) {
    add(e.text, `${PANEL_STRINGS_FILE}:${e.line} (PANEL_STRINGS.${e.key})`);
  }
  const keys = [...sources.keys()].sort(compareKeys);
  return { keys, sources, templates, dynamic };
}

/** Code-unit order, the same on every machine and locale. */
export function compareKeys(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function bundlePath(lang, root = ROOT) {
  return join(root, BUNDLE_DIR, lang ? `bundle.l10n.${lang}.json` : 'bundle.l10n.json');
}

export function nlsPath(lang, root = ROOT) {
  return join(root, lang ? `package.nls.${lang}.json` : 'package.nls.json');
}

/** The `{0}`, `{1}` … of a text, sorted (their order may change in a translation). */
export function placeholders(text) {
  return [...text.matchAll(/\{(\d+)\}/g)].map((m) => m[0]).sort();
}

/**
 * What a translation keeps byte for byte: command links `(command:…)`, `code` spans, setting
 * ids (`groundwork.provider`) and paths under `.groundwork/`.
 */
export function protectedParts(text) {
  const sorted = (re, group = 0) => [...text.matchAll(re)].map((m) => m[group]).sort();
  return {
    links: sorted(/\]\((command:[^)\s]+)\)/g, 1),
    code: sorted(/`[^`]*`/g),
    ids: sorted(/(?<![\w./])groundwork\.[A-Za-z][\w.]*[A-Za-z0-9]/g),
    paths: sorted(/\.groundwork\/[\w./-]*[\w/]/g),
  };
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err && err.code === 'ENOENT') return undefined;
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * One translation file against its English source: keys missing, values empty (or not strings),
 * {n} placeholders or protected parts (command links, `code`, setting ids, .groundwork/ paths)
 * changed, and stale keys (in the file, no longer in the source: listed, not an error).
 */
export function compareTranslations(source, translated) {
  const report = { missing: [], empty: [], placeholders: [], protected: [], stale: [] };
  for (const [key, english] of Object.entries(source)) {
    if (!translated || !(key in translated)) {
      report.missing.push(key);
      continue;
    }
    const text = translated[key];
    if (typeof text !== 'string' || text.trim() === '') {
      report.empty.push(key);
      continue;
    }
    if (placeholders(english).join() !== placeholders(text).join()) report.placeholders.push(key);
    if (JSON.stringify(protectedParts(english)) !== JSON.stringify(protectedParts(text))) report.protected.push(key);
  }
  for (const key of Object.keys(translated ?? {})) if (!(key in source)) report.stale.push(key);
  return report;
}

/** Problems that fail a check: everything but stale keys. */
export function problemCount(report) {
  return report.missing.length + report.empty.length + report.placeholders.length + report.protected.length;
}

/**
 * Every translation file of the project checked against the current sources: the English
 * runtime bundle (missing keys mean the export was not run), then per language the runtime
 * bundle and package.nls.<lang>.json.
 * @returns {{ runtime: ReturnType<typeof collectRuntimeStrings>, files: Array<{ path: string, absent: boolean } & ReturnType<typeof compareTranslations>> }}
 */
export function checkTranslations(root = ROOT) {
  const runtime = collectRuntimeStrings(root);
  const english = Object.fromEntries(runtime.keys.map((k) => [k, k]));
  const nls = readJson(nlsPath(undefined, root));
  if (!nls) throw new Error('package.nls.json is missing');
  const files = [];
  const add = (path, source) => {
    const found = readJson(path);
    files.push({ path, absent: found === undefined, ...compareTranslations(source, found) });
  };
  add(bundlePath(undefined, root), english);
  for (const lang of LANGUAGES) {
    add(bundlePath(lang, root), english);
    add(nlsPath(lang, root), nls);
  }
  return { runtime, english, nls, files };
}
