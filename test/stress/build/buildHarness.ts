// One `groundwork build` of the built CLI (dist/cli.js) against the scripted model server playing
// the seven roles (test/support/buildScript.ts), in a temporary workspace holding brief.md: what
// the stress tests of builds share. Every model call must have been scripted.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BRIEF_MD, VERIFY, buildRules } from '../../support/buildScript';
import type { BuildScriptOptions } from '../../support/buildScript';
import { startScriptedModelServer } from '../../support/scriptedModelServer';
import type { MessagesBody } from '../../support/scriptedModelServer';
import { repo } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';
import { cli } from '../agent/agentCliHarness';
import type { ProcessRun } from '../../support/processes';

export interface ScriptedBuild {
  ws: string;
  r: ProcessRun;
  /** Every request the model server was sent, in order. */
  bodies: MessagesBody[];
}

/**
 * Runs `groundwork --workspace WS build ARGS --yes` (ARGS default: the workspace's brief.md and
 * `--approve VERIFY`); `prepare` may add files to the workspace first.
 */
export async function scriptedBuild(
  options: BuildScriptOptions,
  args: (ws: string) => string[] = (ws) => ['--brief', join(ws, 'brief.md'), '--approve', VERIFY],
  prepare: (ws: string) => Promise<void> = async () => undefined,
): Promise<ScriptedBuild> {
  assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
  const server = await startScriptedModelServer(buildRules(options));
  try {
    const ws = await tempFolder('groundwork-build-');
    await writeFile(join(ws, 'brief.md'), BRIEF_MD);
    await prepare(ws);
    const r = await cli(['--workspace', ws, 'build', ...args(ws), '--yes'], server);
    assert.deepEqual(
      server.unmatched.map((u) => u.seq),
      [],
      'every model call was scripted',
    );
    return { ws, r, bodies: server.requests.map((q) => q.body as MessagesBody) };
  } finally {
    await server.close();
  }
}
