// The curator's heuristics (docs/discovery-cases.md): the content hash that deduplicates, the
// impact a report did not state, and the category the views group by. Both guesses are only a
// start: a person changes either with the case's review actions.
import type { CaseCategory, CaseImpact } from './caseRecord';
import type { Sha256 } from '../run/changesFile';

/** Trimmed, lower-cased, every run of whitespace one space, invisible characters left out: what two reports must share to be one. */
export function normalizeContent(content: string): string {
  // NFKC and no format characters (zero-width spaces and joiners, soft hyphens, direction marks):
  // text that reads the same is the same discovery, however it was typed or pasted.
  return content.normalize('NFKC').replace(INVISIBLE, '').trim().toLowerCase().replace(/\s+/g, ' ');
}

const INVISIBLE = /\p{Cf}/gu;

const utf8 = new TextEncoder();

/** SHA-256 (hex, through the front end's `hash`) of the normalised content: the dedup key, derived again from the store after a restart. */
export function contentHash(content: string, hash: Sha256): string {
  return hash(utf8.encode(normalizeContent(content)));
}

/** Words (or word starts, with `*`) as one case-insensitive pattern bounded by word edges. */
function words(list: readonly string[]): RegExp {
  const alternatives = list.map((w) =>
    w
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*$/, '\\w*')
      .replace(/ /g, '\\s+'),
  );
  return new RegExp(`(?<![\\w])(?:${alternatives.join('|')})(?![\\w])`, 'i');
}

/**
 * The levels (docs/discovery-cases.md, "Scope, impact and category"): critical blocks progress if
 * ignored ("Auth token expires after 1 hour"), high affects the architecture ("All API calls go
 * through gateway"), medium affects the implementation ("This hook requires cleanup"), low is nice
 * to know ("Use const over let when possible"). The first level whose words appear wins, most
 * severe first.
 */
const IMPACT_WORDS: readonly [CaseImpact, RegExp][] = [
  [
    'critical',
    words([
      'expire*',
      'block*',
      'crash*',
      'data loss',
      'corrupt*',
      'deadlock*',
      'security',
      'vulnerab*',
      'secret*',
      'credential*',
      'must not',
      'never',
      'breaks',
      'will fail',
      'fails',
      'cannot',
      "can't",
    ]),
  ],
  [
    'high',
    words([
      'all',
      'every',
      'architecture',
      'gateway',
      'goes through',
      'go through',
      'must',
      'always',
      'only via',
      'only through',
      'breaking',
      'rate limit*',
      'bottleneck*',
    ]),
  ],
  [
    'medium',
    words([
      'require*',
      'need*',
      'should',
      'cleanup',
      'clean up',
      'expect*',
      'before',
      'after',
      'workaround',
      'instead',
      'use',
      'uses',
    ]),
  ],
];

const SOFT_WORDS = words(['when possible', 'if possible', 'nice to', 'prefer*', 'consider']);

export function classifyImpact(content: string): CaseImpact {
  for (const [impact, pattern] of IMPACT_WORDS) {
    if (!pattern.test(content)) continue;
    // "Use const over let when possible": a preference stays low whatever its verb.
    if (impact === 'medium' && SOFT_WORDS.test(content)) return 'low';
    return impact;
  }
  return 'low';
}

/**
 * API, Testing, Database and Frontend, then Errors, Dependencies and Conventions, in that order;
 * else Architecture (docs/discovery-cases.md, "Scope, impact and category").
 */
const CATEGORY_WORDS: readonly [CaseCategory, RegExp][] = [
  ['API', words(['api*', 'route*', 'endpoint*', 'rest', 'graphql', 'http header*', 'status code*'])],
  ['Testing', words(['test*', 'vitest', 'jest', 'mocha', 'spec', 'specs', 'fixture*', 'mock*', 'assert*'])],
  ['Database', words(['schema*', 'database*', 'migration*', 'sql', 'query', 'queries', 'table*'])],
  [
    'Frontend',
    words(['component*', 'ui', 'css', 'html', 'react', 'vue', 'svelte', 'dom', 'style sheet*', 'stylesheet*']),
  ],
  ['Errors', words(['error*', 'exception*', 'crash*', 'bug*', 'fix*', 'fails', 'failure*', 'stack trace*', 'throws'])],
  [
    'Dependencies',
    words([
      'librar*',
      'package*',
      'dependenc*',
      'version*',
      'npm',
      'yarn',
      'pnpm',
      'pip',
      'cargo',
      'upgrade*',
      'install*',
    ]),
  ],
  [
    'Conventions',
    words([
      'naming',
      'convention*',
      'format*',
      'style',
      'lint*',
      'camelcase',
      'snake_case',
      'kebab-case',
      'indent*',
      'prefix*',
      'suffix*',
    ]),
  ],
];

export function classifyCategory(content: string): CaseCategory {
  for (const [category, pattern] of CATEGORY_WORDS) if (pattern.test(content)) return category;
  return 'Architecture';
}
