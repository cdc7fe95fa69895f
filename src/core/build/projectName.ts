// The project's name is a folder name in the person's workspace. The analyst gives it
// (PROJECT_NAME, markers.ts); when the analyst fails three times, one is made from the brief itself
// (docs/build-phases.md, "The fallback name"); a folder already holding something gets a number.
import { describeValue } from '../inputChecks';
import { slugify } from '../storage/safeNames';
import { visibleText } from '../visibleText';

export const PROJECT_NAME_MAX_CHARS = 64;
/** 1 to 3 words of a–z and 0–9 joined by '-': the analyst's PROJECT_NAME. */
export const PROJECT_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+){0,2}$/;
/** Names Windows reserves for devices: no folder can have them there. */
export const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
/** A project folder's name: kebab-case words (a numbered one may have more than 3), at most 64 characters. */
const PROJECT_DIR_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** `-2` … `-100`: past that, something is wrong with the workspace, not with the name. */
const MAX_NUMBER = 100;
/** The fallback when the brief gives no word at all. */
export const FALLBACK_PROJECT_NAME = 'project';

/** Words that say nothing about a project; left out of a derived name when others remain. */
const FILLER = new Set(
  'a an the and or but for of to in on at by with from into as is are be it its this that which who we i me my our you your want need needs build make create simple small new basic app application tool helps help lets allows'.split(
    ' ',
  ),
);
/** How much of the summary line is looked at: a name needs its first words only. */
const LINE_MAX_CHARS = 1000;
const SUMMARY_LABEL = /^[\s>#*_-]*one[- ]line summary[\s*_]*:?[\s*_]*(.*)$/i;
const BRIEF_HEADING = /^#\s+idea brief\s*:\s*(.*)$/i;

/** Whether `name` is a valid PROJECT_NAME as it stands. */
export function isProjectName(name: string): boolean {
  return name.length <= PROJECT_NAME_MAX_CHARS && PROJECT_NAME_PATTERN.test(name) && !WINDOWS_RESERVED.test(name);
}

export const PROJECT_NAME_RULE = `1 to 3 words of a-z and 0-9 joined by '-', at most ${PROJECT_NAME_MAX_CHARS} characters, e.g. price-tracker`;

/** Lower case, and each run of spaces or '_' one '-' (`My Project` → `my-project`). */
export function normalProjectName(value: string): string {
  return value.toLowerCase().replace(/[\s_]+/g, '-');
}

/** The analyst's PROJECT_NAME value (decoration taken off) as a name: as written, or normalised (normalProjectName); else why not. */
export function readProjectName(value: string): { ok: true; name: string } | { ok: false; reason: string } {
  if (value === '') return { ok: false, reason: `PROJECT_NAME is empty; it must be ${PROJECT_NAME_RULE}` };
  const name = normalProjectName(value);
  const shown = visibleText(describeValue(value));
  if (WINDOWS_RESERVED.test(name))
    return { ok: false, reason: `PROJECT_NAME ${shown} is a name Windows reserves; choose another` };
  if (!isProjectName(name)) return { ok: false, reason: `PROJECT_NAME ${shown} is not ${PROJECT_NAME_RULE}` };
  return { ok: true, name };
}

/** Whether `name` may be a project folder: a PROJECT_NAME, or one with a number (`price-tracker-2`). */
export function isProjectDirName(name: string): boolean {
  return name.length <= PROJECT_NAME_MAX_CHARS && PROJECT_DIR_PATTERN.test(name) && !WINDOWS_RESERVED.test(name);
}

/**
 * The line of a brief (as the model wrote it, or as saved in `idea-brief.md`) that best says what
 * the project is: its one-line summary (`One-line summary: …`, or the line under a
 * `## One-line summary` heading), else the title of `# Idea Brief: …`, else its first line.
 */
function summaryLine(lines: readonly string[]): string {
  let first: string | undefined;
  for (let k = 0; k < lines.length; k++) {
    const line = (lines[k] as string).slice(0, LINE_MAX_CHARS);
    const label = SUMMARY_LABEL.exec(line);
    if (label !== null) {
      const value = label[1]?.trim() ?? '';
      if (value !== '') return value;
      const next = lines.slice(k + 1, k + 20).find((l) => l.trim() !== '');
      if (next !== undefined && !next.trimStart().startsWith('#')) return next.slice(0, LINE_MAX_CHARS);
    }
    if (first === undefined && line.trim() !== '') first = line;
  }
  const heading = BRIEF_HEADING.exec(first ?? '');
  return heading?.[1] ?? first ?? '';
}

/**
 * A PROJECT_NAME made from the brief's text, for when the analyst gave none: at most 3 words of
 * a–z and 0–9 from its one-line summary (filler words left out while others remain), at most 64
 * characters, never a name Windows reserves, never empty (`project`).
 */
export function projectNameFrom(briefText: string): string {
  // slugify folds accents and transliterates Cyrillic; the leading 'x' keeps its fallbacks ('plan',
  // a device name's suffix) out, and is dropped again.
  const words = slugify(`x ${summaryLine(briefText.split(/\r?\n/, 5000))}`)
    .split('-')
    .slice(1)
    .filter((w) => w !== '');
  const telling = words.filter((w) => !FILLER.has(w));
  const name = (telling.length > 0 ? telling : words)
    .slice(0, 3)
    .join('-')
    .slice(0, PROJECT_NAME_MAX_CHARS)
    .replace(/-+$/, '');
  if (name === '') return FALLBACK_PROJECT_NAME;
  if (WINDOWS_RESERVED.test(name)) return `${name}-${FALLBACK_PROJECT_NAME}`;
  return name;
}

/**
 * `name`, or `name-2`, `name-3`… (shortened to stay within 64 characters): the first for which
 * `taken(dir)` says no. `taken` is the caller's check that `<workspace>/<dir>` exists and is not
 * empty (an empty folder may be used). RangeError for a name that is not a project folder's, or
 * when `-100` is taken too.
 */
export async function freeProjectDir(name: string, taken: (dir: string) => Promise<boolean>): Promise<string> {
  if (!isProjectDirName(name))
    throw new RangeError(
      `"${name.slice(0, 80)}" is not a project folder name: kebab-case words of a-z and 0-9, at most 64 characters.`,
    );
  if (!(await taken(name))) return name;
  for (let n = 2; n <= MAX_NUMBER; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, PROJECT_NAME_MAX_CHARS - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new RangeError(`Every folder from ${name} to ${name}-${MAX_NUMBER} is taken; choose another name.`);
}
