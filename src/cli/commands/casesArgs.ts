// The values `groundwork cases` is given on its command line, checked: an option that must be one
// of a few words, a case id. A wrong one is a usage error that repeats (a visible part of) it.
import { isCaseId } from '../../core/cases/caseId';
import { visibleText } from '../../core/visibleText';
import { UsageError } from '../cliTypes';
import type { CommandContext } from '../cliTypes';

/** How much of a value the user gave an error message repeats. */
const SHOWN_CHARS = 60;

/** An option that must be one of `allowed`, or undefined when not given. */
export function choice<T extends string>(
  ctx: CommandContext,
  name: string,
  allowed: readonly T[],
  topic: string,
): T | undefined {
  const value = ctx.values[name];
  if (typeof value !== 'string') return undefined;
  const found = allowed.find((a) => a === value);
  if (found !== undefined) return found;
  const list = allowed.length === 2 ? allowed.join(' or ') : `one of ${allowed.join(', ')}`;
  throw new UsageError(`--${name} must be ${list}, not '${shown(value)}'`, topic);
}

export function shown(value: string): string {
  const chars = [...value];
  return visibleText(chars.length > SHOWN_CHARS ? `${chars.slice(0, SHOWN_CHARS).join('')}…` : value);
}

/** The case id argument, checked for its form (whether the store holds it is the service's to say). */
export function caseIdArg(ctx: CommandContext, topic: string): string {
  const id = ctx.args[0] ?? '';
  if (!isCaseId(id))
    throw new UsageError(`'${shown(id)}' is not a case id; ids look like disc-007 (see groundwork cases list)`, topic);
  return id;
}
