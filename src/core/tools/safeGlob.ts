// Globs come from the model (list_files' pattern) and from the workspace (`files.exclude`, which a
// cloned repository may set). picomatch compiles them to regular expressions that backtrack: a
// pattern such as `*a*a*a*a*a*a*b` against a long name can take minutes, and a match cannot be
// interrupted. So a glob may hold only a few single-segment wildcards (`*`, `?`) besides `**`,
// which keeps the worst case polynomial and small.
import picomatch from 'picomatch/posix';

/** How many `*` or `?` (not part of a `**`) a glob may hold. */
export const GLOB_MAX_WILDCARDS = 3;
/** How long a glob may be. */
export const GLOB_MAX_CHARS = 200;

/** Why `pattern` is refused, or undefined when it may be compiled. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length > GLOB_MAX_CHARS) return `it is over ${GLOB_MAX_CHARS} characters`;
  const singles = pattern.replace(/\*\*/g, '').match(/[*?]/g)?.length ?? 0;
  if (singles > GLOB_MAX_WILDCARDS)
    return `it has ${singles} wildcards ('*' or '?' besides '**'); at most ${GLOB_MAX_WILDCARDS} are allowed`;
  return undefined;
}

/** The matcher of a glob that `globProblem` accepts; throws for one it refuses or cannot read. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const problem = globProblem(pattern);
  if (problem !== undefined) throw new RangeError(problem);
  return picomatch(pattern, { dot: true });
}
