// The fields of an Idea Brief, as the tests of the panel, the protocol and the state files give one.
import type { BriefFields } from '../../src/shared/protocol/discovery';

export const BRIEF_FIELDS: BriefFields = {
  summary: 'A CRM for a bakery',
  problem: 'p',
  users: 'u',
  mvpScope: 'm',
  technology: 't',
  outOfScope: 'o',
  keyDecisions: 'k',
  constraints: 'c',
};
