// The round file `.groundwork/discovery/<session>.md`, one per open session, in this layout
// (docs/discovery.md, "The round file"):
//
//   # Discovery Session
//
//   CREATED: 1735689600
//   ROUND: 2
//   ORIGINAL_REQUEST: build me a CRM
//
//   ## Round 1
//   ### Agent Questions
//   1. Who will use it?
//
//   ### User Response
//   My sales team.
//
//   ## Round 2
//   ### Agent Questions
//   …
//
// CREATED is whole seconds since the epoch. Between turns it is the session's only state. Texts in
// it are the person's and the model's, so a line of theirs that starts with '#' (after any
// backslashes) gets one more leading backslash: no text can forge a `## Round` heading, and reading
// removes exactly that backslash, so every text comes back as it went in.
//
// Session names that are not plain lower-case file names get a file name with a hash of the name
// (see roundFileRel), and such a file adds `SESSION: "<name>"` (a JSON string) to the header: a
// reader sees whose conversation it is, and every read checks it.
import { NAME_MAX_CHARS, countChars } from '../inputChecks';
import { utf8Length } from '../prompt/cap';
import { isBlankText, stripHiddenCharacters } from '../prompt/untrustedText';
import { safeFileName } from '../storage/safeNames';
import { discoveryFile } from '../plan/layout';

/**
 * The largest text of the person's a round file keeps (the request, each answer). Four of them and
 * three rounds of questions stay under ROUND_FILE_MAX_BYTES, so the file can always be read back.
 */
export const DISCOVERY_TEXT_MAX_BYTES = 256 * 1024;
/** Questions kept per round: far above what the model's output cap lets it write. */
export const QUESTIONS_MAX_BYTES = 64 * 1024;
/** The read cap of a round file (the store's default text cap). */
export const ROUND_FILE_MAX_BYTES = 2 * 1024 * 1024;

export interface RoundRecord {
  /** The model's questions (after the marker line). */
  questions: string;
  /** The person's answer; absent while the round awaits it. */
  answer?: string;
}

/** What a round file holds. */
export interface RoundFileData {
  /** The session name the file belongs to; absent in files written before it was recorded. */
  session?: string;
  /** The CREATED stamp, whole seconds since the epoch. */
  createdSec: number;
  /** The ROUND header: the round whose questions were asked last. */
  round: number;
  originalRequest: string;
  rounds: RoundRecord[];
}

/**
 * `discovery/<session>.md`, relative to `.groundwork/`, for a name that is a safe file name as it
 * is, in lower case (so that no two such names are one file on a case-insensitive disk); any other
 * name gets a hash of itself after its safe form (`a/b` → `a-b-<16 hex>.md`, `CLI` → `CLI-<16
 * hex>.md`), so that names which sanitise alike still get files of their own.
 */
export function roundFileRel(session: string): string {
  return discoveryFile(fileStem(session));
}

/**
 * Whether the file name is the session name itself (else the file records the name, see above).
 * A name that ends like a hashed one (`-` and 16 hex digits) is hashed too, so that no plain name
 * can be the file of another.
 */
export function isPlainSessionName(session: string): boolean {
  return /^[a-z0-9._-]+$/.test(session) && !/-[0-9a-f]{16}$/.test(session) && safeFileName(session) === session;
}

function fileStem(session: string): string {
  return isPlainSessionName(session) ? session : `${safeFileName(session).slice(0, 100)}-${fnv1a64(session)}`;
}

/** FNV-1a over the UTF-16 code units, 64 bits as 16 hex digits: a file name, not a secret. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++)
    hash = ((hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

/**
 * What is wrong with `session` as a session name, or undefined: it is shown in messages and kept
 * in the file's header, so it is one line of visible text of at most NAME_MAX_CHARS characters.
 */
export function sessionNameProblem(session: string): string | undefined {
  if (isBlankText(session)) return 'the session name is empty (or only invisible characters)';
  if (stripHiddenCharacters(session) !== session || /[\n\r\u2028\u2029]/.test(session))
    return 'the session name holds line breaks, control or invisible characters';
  if (countChars(session) > NAME_MAX_CHARS)
    return `the session name is ${countChars(session)} characters; the limit is ${NAME_MAX_CHARS}`;
  return undefined;
}

const HEADING_LIKE = /^(\\*)#/;

function escapeText(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(HEADING_LIKE, '\\$1#'))
    .join('\n');
}

function unescapeText(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/^\\(\\*#)/, '$1'))
    .join('\n');
}

/** The file's text. Texts are stored as given; callers trim them first (see normalizeText). */
export function serializeRoundFile(data: RoundFileData): string {
  const owner = data.session === undefined ? '' : `SESSION: ${JSON.stringify(data.session)}\n`;
  let out = `# Discovery Session\n\nCREATED: ${data.createdSec}\nROUND: ${data.round}\n${owner}ORIGINAL_REQUEST: ${escapeText(data.originalRequest)}\n`;
  data.rounds.forEach((r, i) => {
    out += `\n## Round ${i + 1}\n### Agent Questions\n${escapeText(r.questions)}\n`;
    if (r.answer !== undefined) out += `\n### User Response\n${escapeText(r.answer)}\n`;
  });
  return out;
}

/** Line endings as '\n', blank lines and spaces around trimmed: how texts are kept. */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/**
 * The round number: the number on the first line starting `ROUND:`, or 1 when there is none or
 * it is not a number.
 */
export function parseDiscoveryRound(content: string): number {
  const line = content.split('\n').find((l) => l.startsWith('ROUND:'));
  if (line === undefined) return 1;
  const value = line.slice('ROUND:'.length).trim();
  if (!/^\d{1,3}$/.test(value)) return 1;
  const n = Number(value);
  return n >= 1 ? n : 1;
}

export type ParsedRoundFile = { ok: true; data: RoundFileData } | { ok: false; reason: string };

const ROUND_HEADING = /^## Round (\d+)\s*$/;

/** Reads a round file back; `reason` says what is wrong with one that is not in the format. */
export function parseRoundFile(text: string): ParsedRoundFile {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const requestAt = lines.findIndex((l) => l.startsWith('ORIGINAL_REQUEST:'));
  if (lines[0]?.trimEnd() !== '# Discovery Session')
    return { ok: false, reason: "it does not start with '# Discovery Session'" };
  if (requestAt < 0) return { ok: false, reason: 'it has no ORIGINAL_REQUEST line' };
  const header = lines.slice(0, requestAt);
  const created = header
    .find((l) => l.startsWith('CREATED:'))
    ?.slice('CREATED:'.length)
    .trim();
  if (created === undefined || !/^\d{1,15}$/.test(created))
    return { ok: false, reason: 'it has no valid CREATED line (seconds since 1970)' };
  const round = parseDiscoveryRound(header.join('\n'));
  const ownerLine = header.find((l) => l.startsWith('SESSION:'));
  let session: string | undefined;
  if (ownerLine !== undefined) {
    session = parseOwner(ownerLine.slice('SESSION:'.length).trim());
    if (session === undefined) return { ok: false, reason: 'its SESSION line is not a quoted session name' };
  }

  let firstRound = lines.findIndex((l, i) => i > requestAt && ROUND_HEADING.test(l));
  if (firstRound < 0) firstRound = lines.length;
  const requestLines = [
    lines[requestAt]!.slice('ORIGINAL_REQUEST:'.length).replace(/^ /, ''),
    ...lines.slice(requestAt + 1, firstRound),
  ];
  const originalRequest = unescapeText(requestLines.join('\n').trim());

  const rounds: RoundRecord[] = [];
  let i = firstRound;
  while (i < lines.length) {
    const heading = ROUND_HEADING.exec(lines[i]!);
    if (!heading) return { ok: false, reason: `line ${i + 1} is not a '## Round N' heading` };
    if (Number(heading[1]) !== rounds.length + 1)
      return { ok: false, reason: `line ${i + 1}: expected '## Round ${rounds.length + 1}'` };
    if (lines[i + 1]?.trimEnd() !== '### Agent Questions')
      return { ok: false, reason: `line ${i + 2}: expected '### Agent Questions'` };
    let end = i + 2;
    while (end < lines.length && !ROUND_HEADING.test(lines[end]!) && lines[end]!.trimEnd() !== '### User Response')
      end++;
    const record: RoundRecord = {
      questions: unescapeText(
        lines
          .slice(i + 2, end)
          .join('\n')
          .trim(),
      ),
    };
    if (end < lines.length && lines[end]!.trimEnd() === '### User Response') {
      let answerEnd = end + 1;
      while (answerEnd < lines.length && !ROUND_HEADING.test(lines[answerEnd]!)) answerEnd++;
      record.answer = unescapeText(
        lines
          .slice(end + 1, answerEnd)
          .join('\n')
          .trim(),
      );
      end = answerEnd;
    }
    rounds.push(record);
    i = end;
  }
  if (rounds.length === 0) return { ok: false, reason: "it has no '## Round 1'" };
  return {
    ok: true,
    data: {
      ...(session !== undefined ? { session } : {}),
      createdSec: Number(created),
      round,
      originalRequest,
      rounds,
    },
  };
}

function parseOwner(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' && sessionNameProblem(value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes of the file `data` makes, for the guard that keeps it under ROUND_FILE_MAX_BYTES. */
export function roundFileBytes(data: RoundFileData): number {
  return utf8Length(serializeRoundFile(data));
}
