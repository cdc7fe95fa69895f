import { Journal, JournalInputError } from '../../core/journal/journal';
import { JOURNAL_SCOPES, isJournalScope, parseJournalEntry } from '../../core/journal/journalEntry';
import type { JournalEntry, JournalInput } from '../../core/journal/journalEntry';
import { displayPath } from '../../core/storage/workspaceStore';
import { visibleJson, visibleText } from '../../core/visibleText';
import { EXIT_OK, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { reportProblems } from '../readProblems';
import { blockText } from '../terminalText';
import { JOURNAL_FILE } from '../../core/plan/layout';

const FILE_SHOWN = displayPath(JOURNAL_FILE);

async function openJournal(ctx: CommandContext): Promise<Journal> {
  const { store } = await ctx.workspace();
  return new Journal(store.log(JOURNAL_FILE, parseJournalEntry), ctx.deps.clock);
}

export const journalAppend: CliCommand = {
  path: ['journal', 'append'],
  summary: 'Add a discovery to the journal',
  usage: 'journal append --title T --description D [--scope local|global] [--agent A] [--task T] [--json]',
  details: [
    `Appends one entry to ${FILE_SHOWN}, stamped with the current time (UTC).`,
    'The title is at most 200 characters, the description at most 8 KB.',
    '--json prints the stored entry as JSON.',
  ],
  options: {
    title: { type: 'string' },
    description: { type: 'string' },
    scope: { type: 'string' },
    agent: { type: 'string' },
    task: { type: 'string' },
  },
  async run(ctx) {
    const title = ctx.values['title'];
    const description = ctx.values['description'];
    if (typeof title !== 'string') throw new UsageError('journal append needs --title', 'journal append');
    if (typeof description !== 'string') throw new UsageError('journal append needs --description', 'journal append');
    const input: JournalInput = { title, description };
    const scope = ctx.values['scope'];
    if (typeof scope === 'string') {
      if (!isJournalScope(scope)) {
        throw new UsageError(
          `--scope must be ${JOURNAL_SCOPES.join(' or ')}, not '${visibleText(scope)}'`,
          'journal append',
        );
      }
      input.scope = scope;
    }
    for (const field of ['agent', 'task'] as const) {
      const value = ctx.values[field];
      if (typeof value === 'string') input[field] = value;
    }
    const journal = await openJournal(ctx);
    let entry: JournalEntry;
    try {
      entry = await journal.append(input);
    } catch (err) {
      if (err instanceof JournalInputError) throw new UsageError(err.message, 'journal append');
      throw err;
    }
    if (ctx.json) ctx.io.stdout(`${visibleJson(entry)}\n`);
    else ctx.io.stdout(`Added to ${FILE_SHOWN}: ${visibleText(entry.title)}\n`);
    return EXIT_OK;
  },
};

export const journalList: CliCommand = {
  path: ['journal', 'list'],
  summary: 'Show the journal',
  usage: 'journal list [--json]',
  details: [
    'Shows every entry, oldest first. --json prints one JSON array of the entries.',
    'Lines that cannot be read are reported on stderr with their line numbers and skipped;',
    'the exit code is still 0, since every valid entry was printed.',
  ],
  async run(ctx) {
    const { records, problems } = await (await openJournal(ctx)).load();
    if (ctx.json) {
      ctx.io.stdout(`${visibleJson(records, 2)}\n`);
    } else if (records.length === 0) {
      ctx.io.stdout(problems.length === 0 ? 'The journal is empty.\n' : 'No readable journal entries.\n');
    } else {
      ctx.io.stdout(`${records.map(formatEntry).join('\n\n')}\n`);
    }
    reportProblems(ctx.io, FILE_SHOWN, problems);
    return EXIT_OK;
  },
};

/** One block per entry: time and title, then the description and the labels, indented. */
function formatEntry(entry: JournalEntry): string {
  const lines = [`${displayTime(entry.timestamp)}  ${visibleText(entry.title)}`];
  if (entry.description !== '') lines.push(blockText(entry.description, '    '));
  const labels = [
    entry.scope && `scope: ${entry.scope}`,
    entry.agent && `agent: ${visibleText(entry.agent)}`,
    entry.task && `task: ${visibleText(entry.task)}`,
  ].filter(Boolean);
  if (labels.length > 0) lines.push(`    [${labels.join(', ')}]`);
  return lines.join('\n');
}

/** '2025-01-31T09:15:00.000Z' → '2025-01-31 09:15:00 UTC'; the parser vouches for the shape. */
function displayTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
