// What the `groundwork discover` tests share, in-process (discover.test.ts) and as a child process
// (test/stress/cli/discoverProcess.test.ts): the canary key, the scripted discovery replies, the
// request matchers and a check that nothing printed ever shows the key.
import assert from 'node:assert/strict';
import { lastUserText, match, type MessagesBody } from './scriptedModelServer';
import { tempFolder } from './tempDirs';

export const CANARY = 'sk-ant-canary-7f3a9c1e5b2d4f60-never-print-me';
export const ROLE = match.system("You are Groundwork's discovery agent");

export const QUESTIONS_1 =
  'DISCOVERY_QUESTIONS\n1. Who will use the CRM?\n2. Which data must it keep?\n3. Web or desktop?';
export const BRIEF = [
  'DISCOVERY_COMPLETE',
  'IDEA_BRIEF:',
  'One-line summary: A small web CRM for a five-person sales team',
  'Problem: Leads are lost in spreadsheets.',
  'Users: The sales team.',
  'MVP scope: Contacts, deals, reminders.',
  'Technology: TypeScript, SQLite.',
  'Out of scope: Invoicing.',
  'Key decisions: Web only.',
  'Constraints: Two weeks.',
].join('\n');

/** A request whose last user text names the round, e.g. `round('Discovery round 2/3')`. */
export const round = (n: string) => (body: MessagesBody) => lastUserText(body).includes(n);

export const tempWorkspace = () => tempFolder('groundwork-discover-');

/** Fails if anything a run printed shows the key. */
export function assertKeyNotPrinted(...printed: string[]): void {
  for (const text of printed) assert.ok(!text.includes(CANARY), 'the key was printed');
}
