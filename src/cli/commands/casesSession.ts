// The CaseService around one `groundwork cases` subcommand: opened over the workspace, its queued
// view rewrites waited for, its refusals turned into exit codes. Apart from cases.ts so that the
// subcommands there read as what each one does.
import { CaseTransitionError } from '../../core/cases/caseActions';
import type { CaseService } from '../../core/cases/caseService';
import { CaseInputError } from '../../core/cases/caseStore';
import { Journal } from '../../core/journal/journal';
import { parseJournalEntry } from '../../core/journal/journalEntry';
import { JOURNAL_FILE } from '../../core/plan/layout';
import { visibleText } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from '../cliTypes';
import type { CommandContext } from '../cliTypes';

/** The CaseService over the workspace's store and journal; git only for the staleness check. */
async function openCases(ctx: CommandContext, withGit = false): Promise<CaseService> {
  const { root, store } = await ctx.workspace();
  const journal = new Journal(store.log(JOURNAL_FILE, parseJournalEntry), ctx.deps.clock);
  const git = withGit ? await ctx.deps.git(root) : undefined;
  return ctx.deps.cases({
    store,
    clock: ctx.deps.clock,
    hash: (bytes) => ctx.deps.hash(bytes),
    journal,
    ...(git !== undefined ? { git } : {}),
  });
}

/**
 * Runs `body` on the service, then waits for the views it queued. A refused transition exits 2
 * with its sentence (the usage was right, so no help hint); a refused input is a usage error; a
 * view that could not be rewritten is said on stderr and makes the exit at least 1.
 */
export async function withCases(
  ctx: CommandContext,
  topic: string,
  body: (service: CaseService) => Promise<number>,
  withGit = false,
): Promise<number> {
  const service = await openCases(ctx, withGit);
  let code: number;
  try {
    code = await body(service);
  } catch (err) {
    await settle(ctx, service);
    if (err instanceof CaseTransitionError) {
      ctx.io.stderr(`groundwork: ${visibleText(err.message)}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof CaseInputError) throw new UsageError(err.message, topic);
    throw err;
  }
  return (await settle(ctx, service)) ? code : Math.max(code, EXIT_FAILURE);
}

/** Waits for the queued view rewrites; false (said on stderr) when one failed. */
async function settle(ctx: CommandContext, service: CaseService): Promise<boolean> {
  try {
    await service.settled();
    return true;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    ctx.io.stderr(
      `groundwork: the discovery views in .groundwork/ could not be rewritten (${visibleText(why)}); run 'groundwork cases views' to try again\n`,
    );
    return false;
  }
}
