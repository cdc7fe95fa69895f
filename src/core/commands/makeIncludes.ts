// What a Makefile includes: `include a.mk b.mk`, `-include`, `sinclude`, the files make reads as
// part of it, so writing one changes what `make` runs as surely as writing the Makefile does. Pure:
// the text in, the names out; whether a written path is one of them by a glob-like match in which a
// variable (`$(DEPS)`) or `*` stands for anything (conservative), in time linear in the lengths.

/** The most of a Makefile read; the most names taken from one. */
export const MAKEFILE_MAX_BYTES = 256 * 1024;
const MAX_NAMES = 200;

/** The names `text`'s include lines give, as written (they may hold `$(VAR)`, `*`, `?`). */
export function makefileIncludes(text: string): string[] {
  const names: string[] = [];
  // A backslash at the end of a line continues it.
  const lines = text
    .slice(0, MAKEFILE_MAX_BYTES)
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/);
  for (const line of lines) {
    const start = line.search(/\S/);
    if (start < 0) continue;
    const rest = line.slice(start);
    const directive = ['include', '-include', 'sinclude'].find(
      (d) => rest.startsWith(d) && (rest.charAt(d.length) === ' ' || rest.charAt(d.length) === '\t'),
    );
    if (directive === undefined) continue;
    const hash = rest.indexOf('#');
    const words = (hash < 0 ? rest : rest.slice(0, hash)).slice(directive.length).split(/[ \t]+/);
    for (const word of words) {
      if (word === '') continue;
      names.push(word);
      if (names.length >= MAX_NAMES) return names;
    }
  }
  return names;
}

type Token = { kind: 'char'; c: string } | { kind: 'any' } | { kind: 'one' };

/** The name as tokens: `$(…)`, `${…}`, `$X` and `*` are any run of characters, `?` and `[…]` one. */
function tokens(name: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name.charAt(i);
    if (c === '$') {
      const open = name.charAt(i + 1);
      const close = open === '(' ? ')' : open === '{' ? '}' : undefined;
      if (close !== undefined) {
        // Nested $(…) inside: matched to the close of the same depth.
        let depth = 0;
        let j = i + 1;
        for (; j < name.length; j++) {
          const d = name.charAt(j);
          if (d === open) depth++;
          else if (d === close && --depth === 0) break;
        }
        i = j;
      } else i++;
      if (out[out.length - 1]?.kind !== 'any') out.push({ kind: 'any' });
    } else if (c === '*') {
      if (out[out.length - 1]?.kind !== 'any') out.push({ kind: 'any' });
    } else if (c === '?') out.push({ kind: 'one' });
    else if (c === '[') {
      const end = name.indexOf(']', i + 2);
      if (end < 0) out.push({ kind: 'char', c });
      else {
        out.push({ kind: 'one' });
        i = end;
      }
    } else out.push({ kind: 'char', c: c.toLowerCase() });
  }
  return out;
}

/** `path` matched by `pattern`, where 'any' is any run of characters: greedy with one backtrack point, O(n·m) at worst. */
function wildcard(pattern: Token[], path: string): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < path.length) {
    const t = pattern[p];
    if (t !== undefined && (t.kind === 'one' || (t.kind === 'char' && t.c === path.charAt(s)))) {
      p++;
      s++;
    } else if (t?.kind === 'any') {
      star = p++;
      mark = s;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else return false;
  }
  while (pattern[p]?.kind === 'any') p++;
  return p === pattern.length;
}

/** The '/'-joined names of `path` with '.' and 'a/..' taken out; undefined when it climbs above its start or is absolute. */
function lexical(path: string): string | undefined {
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return undefined;
  const out: string[] = [];
  for (const segment of path.split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.pop() === undefined) return undefined;
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * Whether an include name of a Makefile names `relPath` (relative to the Makefile's folder, where
 * make runs): compared case-insensitively, a variable or glob standing for anything.
 */
export function includeNames(include: string, relPath: string): boolean {
  if (include.length > 1000) return true; // past what a person writes: taken to name anything
  const name = lexical(include);
  const path = lexical(relPath.slice(0, 4096));
  if (name === undefined || path === undefined || name === '') return false;
  return wildcard(tokens(name), path.toLowerCase());
}
