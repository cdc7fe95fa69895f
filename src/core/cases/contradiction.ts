// The contradiction check (docs/discovery-cases.md, "Outdated detection"): two cases contradict
// when they are about the same thing (a file in common, or keywords overlapping by 0.3 or more)
// and either one says the opposite of the other (use / don't use X, requires / doesn't require,
// always / never, should / shouldn't, must / must not), or they differ enough (similarity under
// 0.7) to be two claims about it.
import { extractFilePaths, pathsIntersect } from './filePaths';
import { normalizeContent } from './classify';

/** What the check compares of a case, computed once per case. */
export interface CaseFeatures {
  paths: string[];
  keywords: Set<string>;
  bigrams: Map<string, number>;
  text: string;
}

export const TOPIC_OVERLAP_MIN = 0.3;
export const SIMILARITY_MAX = 0.7;

// Words that say nothing of the topic, and the negations the patterns look for.
const STOP_WORDS = new Set(
  (
    'the a an and or but if then else of to in on at by for with from into over under as is are was were be been being this that these those ' +
    'it its it’s they them their there here we you your our not no nor do does did done dont doesnt didnt isnt arent wont cant should shouldnt ' +
    'must would could can will may might use uses used using always never all any each every some more most less than when where which who ' +
    'what why how also only just very so such'
  ).split(' '),
);

export function caseFeatures(content: string): CaseFeatures {
  const text = normalizeContent(content).replace(/[\u2018\u2019]/g, "'");
  const keywords = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = m[0];
    if (word.length >= 3 && !STOP_WORDS.has(word)) keywords.add(word);
  }
  const bigrams = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const pair = text.slice(i, i + 2);
    bigrams.set(pair, (bigrams.get(pair) ?? 0) + 1);
  }
  return { paths: extractFilePaths(content), keywords, bigrams, text };
}

/** |A ∩ B| / |A ∪ B| of the keywords: how far two cases are about the same thing. */
export function keywordOverlap(a: CaseFeatures, b: CaseFeatures): number {
  if (a.keywords.size === 0 || b.keywords.size === 0) return 0;
  let shared = 0;
  for (const k of a.keywords) if (b.keywords.has(k)) shared++;
  return shared / (a.keywords.size + b.keywords.size - shared);
}

/** Sørensen–Dice of character bigrams: 1 for the same text, near 0 for unrelated ones. */
export function similarity(a: CaseFeatures, b: CaseFeatures): number {
  const total = a.text.length - 1 + (b.text.length - 1);
  if (total <= 0) return a.text === b.text ? 1 : 0;
  let shared = 0;
  for (const [pair, n] of a.bigrams) shared += Math.min(n, b.bigrams.get(pair) ?? 0);
  return (2 * shared) / total;
}

const NEGATED = String.raw`(?:don'?t|do not|doesn'?t|does not|never|no longer|avoid|stop)`;
/** Not right after a negation: "don't use X" is no "use X". */
const NOT_NEGATED = String.raw`(?<!\b(?:not|never|longer|to|don'?t|doesn'?t|didn'?t|won'?t|can'?t|shouldn'?t|mustn'?t)\s+)`;

const USED = new RegExp(String.raw`${NOT_NEGATED}\buses?\s+([\p{L}\p{N}_.\/-]+)`, 'gu');
const AVOIDED = new RegExp(String.raw`\b${NEGATED}\s+(?:use\s+)?([\p{L}\p{N}_.\/-]+)`, 'gu');

/** "use X" in one text and "don't use X" (or "avoid X") in the other: the X they disagree on. */
function useFlips(a: string, b: string): boolean {
  const used = (text: string) => new Set([...text.matchAll(USED)].map((m) => trimWord(m[1]!)));
  const avoided = (text: string) =>
    new Set([...text.matchAll(AVOIDED)].map((m) => trimWord(m[1]!)).filter((w) => w !== 'use'));
  const flip = (x: Set<string>, y: Set<string>) => [...x].some((w) => y.has(w));
  return flip(used(a), avoided(b)) || flip(avoided(a), used(b));
}

function trimWord(word: string): string {
  return word.replace(/[.\/-]+$/, '');
}

const OPPOSITES: readonly [RegExp, RegExp][] = [
  [
    new RegExp(String.raw`${NOT_NEGATED}\brequires?\b`, 'u'),
    new RegExp(String.raw`\b(?:doesn'?t|does not|don'?t|do not|no longer)\s+require`, 'u'),
  ],
  [/\balways\b/u, /\bnever\b/u],
  [/\bshould\b(?!\s+not)/u, /\b(?:shouldn'?t|should not)\b/u],
  [/\bmust\b(?!\s+not)/u, /\b(?:mustn'?t|must not)\b/u],
];

/** Whether one text claims what the other denies, by the opposite-claim patterns (either way round). */
export function oppositeClaims(older: string, newer: string): boolean {
  if (useFlips(older, newer)) return true;
  return OPPOSITES.some(([yes, no]) => (yes.test(older) && no.test(newer)) || (no.test(older) && yes.test(newer)));
}

/** Whether `newer` contradicts `older`: the same topic, and opposite claims or too different to agree. */
export function contradicts(older: CaseFeatures, newer: CaseFeatures): boolean {
  if (!pathsIntersect(older.paths, newer.paths) && keywordOverlap(older, newer) < TOPIC_OVERLAP_MIN) return false;
  if (oppositeClaims(older.text, newer.text)) return true;
  return similarity(older, newer) < SIMILARITY_MAX;
}
