import { StorageError, quotePath } from './storageError';

/** A plan name: lower-case ascii letters, digits and '-', starting with a letter or digit. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_SLUG_LENGTH = 64;
const MAX_FILE_NAME_LENGTH = 120;

export function isSlug(text: string): boolean {
  return SLUG.test(text);
}

export function assertSlug(text: string): string {
  if (!isSlug(text)) {
    throw new StorageError(
      'unsafe-path',
      text,
      `Refused the plan name ${quotePath(text)}: a plan name is 1 to 64 characters of a–z, 0–9 and '-', ` +
        `starting with a letter or digit. Pick another name, e.g. ${quotePath(slugify(text))}.`,
    );
  }
  return text;
}

// Letters that Unicode decomposition does not reduce to ascii. Russian is one of the product's
// languages, so its alphabet is transliterated rather than turned into dashes.
const TRANSLITERATION: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

// Names Windows reserves for devices: a folder called "con" cannot be created there.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** A valid slug made from free text (a topic, a title), never empty: 'plan' when nothing is left. */
export function slugify(text: string): string {
  const folded = text
    .toLowerCase()
    .replace(/[^\u0000-\u007f]/g, (c) => TRANSLITERATION[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
  let slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '');
  slug = slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
  if (slug === '') return 'plan';
  if (WINDOWS_DEVICE.test(slug)) slug = `${slug.slice(0, MAX_SLUG_LENGTH - 5)}-plan`;
  return slug;
}

/** `base` if free, else `base-2`, `base-3`... shortened so that the result is still a slug. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  assertSlug(base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const head = base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '');
    const candidate = `${head === '' ? 'plan' : head}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * A file name made from an id that may come from outside (a session id, an agent name): every
 * character other than a–z, A–Z, 0–9, '.', '_' and '-' becomes '-', the length is capped, and the
 * result is never empty, never '.' or '..', never hidden and never a Windows device name.
 * Different ids can map to the same name; callers that need distinct files check for that.
 */
export function safeFileName(text: string): string {
  let name = text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, MAX_FILE_NAME_LENGTH);
  // A leading dot would hide the file ('.', '..' included); Windows drops trailing dots.
  name = name.replace(/^\./, '-').replace(/\.$/, '-');
  if (name === '') return 'unnamed';
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`.slice(0, MAX_FILE_NAME_LENGTH);
  return name;
}

export type RelativePathCheck = { ok: true; segments: string[] } | { ok: false; reason: string };

/**
 * Checks, without touching the disk, that `rel` names something inside the `.groundwork` folder:
 * '/'-separated plain names only. Segments are compared, never prefixes, so nothing like
 * '../.groundwork-evil/x' can pass.
 */
export function checkRelativePath(rel: string): RelativePathCheck {
  if (rel === '') return { ok: false, reason: 'the path is empty' };
  if (rel.includes('\0')) return { ok: false, reason: 'it contains a NUL byte' };
  if (rel.includes('\\')) return { ok: false, reason: "it contains a backslash; use '/' between folder names" };
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) {
    return { ok: false, reason: 'it is an absolute path; paths are relative to the .groundwork folder' };
  }
  const segments = rel.split('/');
  for (const segment of segments) {
    if (segment === '') return { ok: false, reason: "it has an empty folder name (a '//' or a '/' at the end)" };
    if (segment === '..') return { ok: false, reason: "it has a '..' segment, which leaves the .groundwork folder" };
    if (segment === '.') return { ok: false, reason: "it has a '.' segment" };
  }
  return { ok: true, segments };
}

/** The segments of `rel`, or a StorageError 'unsafe-path' saying why it was refused. */
export function assertRelativePath(rel: string): string[] {
  const check = checkRelativePath(rel);
  if (check.ok) return check.segments;
  throw new StorageError(
    'unsafe-path',
    rel,
    `Refused to use ${quotePath(rel)}: ${check.reason}. Use a path inside .groundwork made of plain names ` +
      `separated by '/', e.g. a plan name made of a–z, 0–9 and '-'.`,
  );
}
