// A finished brainstorm whose coordinator's summary is kept as prose, for the tests of the
// document (brainstormDocsProse.test.ts) and of the context file and digest (contextFileProse.test.ts):
// round 1 has an answered UX question and a skipped edge-case one.
import type { BrainstormSession } from '../../../src/core/brainstorm/brainstormTypes';
import { proseSummary } from '../../../src/core/brainstorm/harvest';

export const PROSE = 'The agents work from phones.\n\n- Postgres\n- offline first';

export function proseSession(prose: string = PROSE, over: Partial<BrainstormSession> = {}): BrainstormSession {
  return {
    slug: 'crm',
    topic: 'A CRM for realtors',
    createdAt: Date.UTC(2025, 0, 2, 9, 30),
    minRounds: 1,
    maxRounds: 5,
    inquisitors: { ux: { status: 'success' }, technical: { status: 'success' }, 'edge-cases': { status: 'empty' } },
    rounds: [
      {
        round: 1,
        questions: [
          { text: 'Who will use it?', angle: 'ux', priority: 1 },
          { text: 'What if two agents edit one contact?', angle: 'edge-cases', priority: 4 },
        ],
        answers: [{ kind: 'answered', text: 'Five agents.' }, { kind: 'skipped' }],
      },
    ],
    summary: proseSummary('A CRM for realtors', prose),
    phase: { kind: 'complete' },
    ...over,
  };
}

/** The headings the session's questions and answers make, in the document and in the digest. */
export const QA_HEADINGS = [
  '## Questions and answers',
  '### Round 1',
  '#### UX',
  '##### Question 1 (priority 1)',
  '#### Edge cases',
  '##### Question 2 (priority 4)',
];
