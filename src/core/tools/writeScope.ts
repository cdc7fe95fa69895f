// Where a role may write, when its file says (`writes:` in its frontmatter, e.g. delivery's
// `README.md` and `docs/**`): globs over paths relative to the run's root, checked by write_file and
// edit_file on the path as given AND on the path really written (links resolved), so the limit is
// Groundwork's, not the prompt's. The patterns come from role files, which may come from a cloned
// repository: each is checked (plain names, `*` within a name, `**` as a whole name), and matching
// is linear in the path and the pattern (no regular expression built from them).

/** The most patterns one role may list, and the longest pattern. */
export const WRITE_PATTERNS_MAX = 32;
export const WRITE_PATTERN_MAX_CHARS = 200;
/** The most names (between '/') in one pattern. */
const PATTERN_SEGMENTS_MAX = 16;
/** The characters a pattern's name may hold, besides '*'. */
const NAME_CHARS = /^[A-Za-z0-9._@+ -]+$/;

/** What write_file and edit_file are told of a run's write scope. */
export interface WriteScope {
  /** Whose scope it is, for the refusal: `build-delivery`. */
  role: string;
  /** The role's `writes:` patterns, checked by writePatternProblem. */
  patterns: readonly string[];
}

/**
 * Why `pattern` is not a write pattern, or undefined when it is one: names relative to the run's
 * root joined by '/', each made of letters, digits, `. _ @ + -` and spaces, with `*` for any part
 * of one name and `**` (a whole name) for any number of folders.
 */
export function writePatternProblem(pattern: string): string | undefined {
  if (pattern === '') return 'is empty';
  if ([...pattern].length > WRITE_PATTERN_MAX_CHARS) return `is longer than ${WRITE_PATTERN_MAX_CHARS} characters`;
  if (pattern.startsWith('/') || /^[A-Za-z]:/.test(pattern))
    return "is absolute; give a path relative to the project folder, such as 'docs/**'";
  if (pattern.includes('\\')) return "uses '\\'; separate names with '/'";
  const segments = pattern.split('/');
  if (segments.length > PATTERN_SEGMENTS_MAX) return `has more than ${PATTERN_SEGMENTS_MAX} names`;
  for (const segment of segments) {
    if (segment === '') return "has an empty name (a '/' at the start or the end, or '//')";
    if (segment === '.' || segment === '..') return `may not use '${segment}'`;
    if (segment === '**') continue;
    if (segment.includes('**')) return "uses '**' inside a name; '**' stands alone between '/', as in 'docs/**'";
    if (segment.trim() !== segment) return 'has a name that starts or ends with a space';
    if (!NAME_CHARS.test(segment.replace(/\*/g, 'x')))
      return "has a character other than letters, digits, '. _ @ + -', spaces, '*' and '/' (no '?', '[ ]' or '{ }')";
  }
  return undefined;
}

/** Whether one name matches one pattern name ('*' is any run of characters). Greedy with one backtrack point: linear-ish, never exponential. */
function nameMatches(pattern: string, name: string): boolean {
  let [p, n, star, mark] = [0, 0, -1, 0];
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * Whether the path `names` (relative to the run's root) matches `pattern`. `**` in the middle is
 * any number of names, none included; at the end, at least one (`docs/**` is what is in docs/).
 * `compare` maps both sides' names before they are compared (a file system's idea of equal names).
 */
export function pathMatches(
  names: readonly string[],
  pattern: string,
  compare: (name: string) => string = (n) => n,
): boolean {
  const parts = pattern.split('/').map((p) => (p === '**' ? p : compare(p)));
  const path = names.map(compare);
  // seen[i][j]: parts from i against names from j already failed.
  const failed = new Set<number>();
  const width = path.length + 1;
  const match = (i: number, j: number): boolean => {
    if (failed.has(i * width + j)) return false;
    let ok: boolean;
    if (i === parts.length) ok = j === path.length;
    else if (parts[i] === '**')
      ok = i === parts.length - 1 ? j < path.length : match(i + 1, j) || (j < path.length && match(i, j + 1));
    else ok = j < path.length && nameMatches(parts[i] as string, path[j] as string) && match(i + 1, j + 1);
    if (!ok) failed.add(i * width + j);
    return ok;
  };
  return match(0, 0);
}

/** Whether the path matches one of the patterns. */
export function inWriteScope(
  names: readonly string[],
  patterns: readonly string[],
  compare?: (name: string) => string,
): boolean {
  return patterns.some((p) => pathMatches(names, p, compare));
}

/**
 * Whether everything `pattern` matches is matched by one of `scope` too, as far as can be told
 * simply: the same pattern, a plain path a pattern matches, or a pattern below a `folder/**` of
 * the scope. Anything else counts as wider (a weakening is said rather than missed).
 */
export function patternWithin(pattern: string, scope: readonly string[]): boolean {
  const parts = pattern.split('/');
  return scope.some((outer) => {
    if (outer === pattern || outer === '**') return true;
    if (!pattern.includes('*')) return pathMatches(parts, outer);
    const outerParts = outer.split('/');
    if (outerParts[outerParts.length - 1] !== '**') return false;
    const prefix = outerParts.slice(0, -1);
    if (prefix.some((p) => p.includes('*')) || parts.length <= prefix.length) return false;
    return prefix.every((p, i) => p === parts[i]);
  });
}

/** The patterns of `wider` not within `scope` (undefined `wider`: anywhere, so ['**'] unless the scope is already that). */
export function widerPatterns(wider: readonly string[] | undefined, scope: readonly string[] | undefined): string[] {
  if (scope === undefined) return [];
  if (wider === undefined) return scope.includes('**') ? [] : ['**'];
  return wider.filter((p) => !patternWithin(p, scope));
}

/** `README.md, docs/**`; `nothing` for an empty scope. */
export function scopeText(patterns: readonly string[]): string {
  return patterns.length === 0 ? 'nothing' : patterns.join(', ');
}
