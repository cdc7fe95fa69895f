// The discovery session the panel tests start from (round 1 of 3, two questions, awaiting the
// answers), and the fields of a brief.
import type { DiscoveryView } from '../../../src/core/discovery/discoveryTypes';

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

export const FIELDS = {
  summary: 'A CRM for a bakery',
  problem: 'p',
  users: 'u',
  mvpScope: 'm',
  technology: 't',
  outOfScope: 'o',
  keyDecisions: 'k',
  constraints: 'c',
};
