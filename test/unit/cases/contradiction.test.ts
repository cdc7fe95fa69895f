import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { caseFeatures, contradicts, oppositeClaims } from '../../../src/core/cases/contradiction';

const pair = (older: string, newer: string) => contradicts(caseFeatures(older), caseFeatures(newer));

describe('contradiction (docs/discovery-cases.md, "Outdated detection")', () => {
  const contradicting: [string, string, string][] = [
    [
      'use X / don’t use X, same file',
      'Use axios for HTTP calls in src/api.ts',
      'Don’t use axios in src/api.ts; use fetch',
    ],
    [
      'don’t use X / use X (either way round)',
      'Do not use moment for dates in src/time.ts',
      'Use moment in src/time.ts after all',
    ],
    [
      'requires / doesn’t require',
      'The upload endpoint requires an auth header',
      'The upload endpoint no longer requires an auth header',
    ],
    [
      'always / never',
      'Always run the seed script before the auth tests',
      'Never run the seed script before the auth tests',
    ],
    [
      'should / shouldn’t',
      'Handlers should catch their own errors in src/server.ts',
      'Handlers should not catch their own errors in src/server.ts',
    ],
    [
      'same file, a different claim about it',
      'src/auth.ts hashes passwords with bcrypt',
      'src/auth.ts now hashes passwords with argon2id, configured in one place',
    ],
  ];
  for (const [name, older, newer] of contradicting) {
    test(`contradicts: ${name}`, () => assert.equal(pair(older, newer), true));
  }

  const compatible: [string, string, string][] = [
    ['different topics', 'Tests use vitest, not jest', 'Database migrations live in db/migrations'],
    [
      'the same claim said again',
      'The retry logic in src/http.ts expects exponential backoff',
      'The retry logic in src/http.ts expects an exponential backoff.',
    ],
    ['different files, different words', 'src/a.ts exports the parser', 'lib/b.go opens a pool per process'],
  ];
  for (const [name, older, newer] of compatible) {
    test(`does not contradict: ${name}`, () => assert.equal(pair(older, newer), false));
  }

  test('the opposite patterns need the same word for use / don’t use', () => {
    assert.equal(oppositeClaims('use axios for calls', "don't use fetch for calls"), false);
    assert.equal(oppositeClaims('use axios for calls', 'avoid axios for calls'), true);
  });
});
