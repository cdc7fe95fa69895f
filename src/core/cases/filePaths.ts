// The files a case's content speaks of, by four patterns (docs/discovery-cases.md, "Outdated
// detection"): backticked paths with a source extension, `src/…` paths, `dir/file.ext`, and "in
// file.ext". Content is untrusted, so what comes out is held to a plain relative path (no '..',
// nothing absolute, no URL, no version number) before it reaches `git log` as a pathspec.

const PATTERNS: readonly RegExp[] = [
  /`([^`]+\.(?:ts|tsx|js|jsx|go|py|rs|md))`/g,
  // Not inside a longer path (`../src/x`, `/etc/x.conf`): that one is judged whole or not at all.
  /(?<![\w./-])(src\/[^\s`'"<>()[\]{},;]+)/g,
  /(?<![\w./-])(\w+\/\w+\.\w+)/g,
  /\bin\s+`?([^`\s]+\.\w+)`?/g,
];
/** The most paths one case yields: enough for any real learning, bounded for `git log`. */
export const FILE_PATHS_MAX = 20;
const PATH_MAX_CHARS = 300;
const TRAILING = /[.,;:!?)\]}'"`]+$/;
const VERSION = /^v?\d+(?:\.\d+)+$/i;

/** The unique paths in `content`, in the order they first appear, at most FILE_PATHS_MAX. */
export function extractFilePaths(content: string): string[] {
  // A URL's host and path are not files of the workspace; blanked, so positions stay the same.
  const text = content.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, (url) => ' '.repeat(url.length));
  const found: { at: number; path: string }[] = [];
  for (const pattern of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const path = cleanPath(m[1] ?? '');
      if (path !== undefined) found.push({ at: m.index ?? 0, path });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const paths: string[] = [];
  const all = found.map((f) => f.path);
  for (const path of all) {
    // `routes/index.ts` inside `src/routes/index.ts` is the same file, found by a looser pattern.
    if (paths.includes(path) || all.some((other) => other.endsWith(`/${path}`))) continue;
    // `src/routes/` and `src/routes/index.ts`: both kept, each is a pathspec of its own.
    paths.push(path);
    if (paths.length === FILE_PATHS_MAX) break;
  }
  return paths;
}

/** The path as a plain relative path, or undefined when it is not one. */
function cleanPath(raw: string): string | undefined {
  let path = raw.trim().replace(TRAILING, '').replace(/^\.\//, '');
  const dir = path.endsWith('/');
  path = path.replace(/\/+$/, '');
  if (path === '' || path.length > PATH_MAX_CHARS) return undefined;
  if (
    path.includes('://') ||
    path.includes('\\') ||
    path.startsWith('/') ||
    path.startsWith('-') ||
    /^[A-Za-z]:/.test(path)
  )
    return undefined;
  if (/[\u0000-\u001f\u007f*?[\]]/.test(path)) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  if (VERSION.test(path) || /^\d/.test(segments[segments.length - 1]!.split('.').pop() ?? '')) return undefined;
  return dir ? `${path}/` : path;
}

/**
 * Whether a file a commit changed (relative to the same folder) is one the case speaks of: the
 * same path, a file inside a folder it names (`src/routes/`), or, for a bare name (`auth.ts`),
 * that name in any folder.
 */
export function pathMatches(changed: string, mentioned: string): boolean {
  const target = mentioned.replace(/\/$/, '');
  if (changed === target || changed.startsWith(`${target}/`)) return true;
  return !target.includes('/') && changed.endsWith(`/${target}`);
}

/** Whether two cases name a file in common (the same path, or one inside a folder the other names). */
export function pathsIntersect(a: readonly string[], b: readonly string[]): boolean {
  return a.some((p) => b.some((q) => pathMatches(p.replace(/\/$/, ''), q) || pathMatches(q.replace(/\/$/, ''), p)));
}
