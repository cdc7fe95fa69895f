// A child process of concurrentAdds.test.ts: adds `count` cases to the workspace's store as fast
// as it can, as a second window or the CLI would, then prints the ids it got, one per line.
import { systemClock } from '../../../src/core/clock';
import { sha256 } from '../../support/sha256';
import { CaseStore } from '../../../src/core/cases/caseStore';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';

const [workspace, count, tag] = process.argv.slice(2);
if (workspace === undefined || count === undefined || tag === undefined)
  throw new Error('usage: addCases.ts WORKSPACE COUNT TAG');

async function main(store: CaseStore, n: number, agent: string): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { case: added } = await store.add({
      content: `${agent} learned thing number ${i}`,
      scope: i % 2 ? 'local' : 'global',
      impact: 'low',
      category: 'Architecture',
      sourceAgentId: agent,
    });
    ids.push(added.id);
  }
  process.stdout.write(`${ids.join('\n')}\n`);
}

main(new CaseStore(openWorkspaceStore(workspace), systemClock, sha256), Number(count), tag).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
