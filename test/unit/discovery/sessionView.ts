// The discovery session the panel tests start from (round 1 of 3, two questions, awaiting the
// answers), and the fields of a brief.
import type { DiscoveryView } from '../../../src/core/discovery/discoveryTypes';
import { BRIEF_FIELDS } from '../../support/brief';

export function sessionView(over: Partial<DiscoveryView> = {}): DiscoveryView {
  return {
    session: 'panel',
    createdAt: 0,
    expiresAt: 1,
    originalRequest: 'build me a CRM',
    round: 1,
    maxRounds: 3,
    rounds: [{ round: 1, questionsText: '1. Who?\n2. Where?', intro: '', questions: ['Who?', 'Where?'] }],
    state: 'awaiting-answers',
    file: '.groundwork/discovery/panel.md',
    ...over,
  };
}

/** The fields of a brief (test/support/brief.ts). */
export const FIELDS = BRIEF_FIELDS;
