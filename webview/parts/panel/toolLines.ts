// An agent's tool calls as a native chat shows them: a small line each, a codicon for what it did
// ("Read README.md", "Listed src", "Searched 'auth'"), a spinner while it runs, the error icon when
// it failed. The target is model text: it goes in as text, already cut to one line by the core.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import type { ToolLine } from '../../../src/shared/protocol/discovery';
import { h } from '../../dom';

const ICON: Record<ToolLine['kind'], string> = {
  read: 'file',
  list: 'list-tree',
  search: 'search',
  write: 'edit',
  command: 'terminal',
  other: 'tools',
};

/** The words of a line, in the person's language. */
export function toolWords(S: PanelStrings, line: ToolLine): string {
  const phase = line.status === 'running' ? 0 : line.status === 'done' ? 1 : 2;
  switch (line.kind) {
    case 'read':
      return fill([S.toolReading, S.toolRead, S.toolReadFailed][phase]!, line.target);
    case 'list':
      return fill([S.toolListing, S.toolListed, S.toolListFailed][phase]!, line.target);
    case 'search':
      return fill([S.toolSearching, S.toolSearched, S.toolSearchFailed][phase]!, line.target);
    // Writes and commands have no words of their own yet: the tool's name says what it did.
    case 'write':
    case 'command':
    case 'other':
      return fill([S.toolUsing, S.toolUsed, S.toolUseFailed][phase]!, line.tool, line.target);
  }
}

function toolLineElement(S: PanelStrings, line: ToolLine): HTMLElement {
  const words = toolWords(S, line);
  const name = line.status === 'error' ? 'error' : line.status === 'running' ? 'loading' : (ICON[line.kind] ?? 'tools');
  return h(
    'div',
    {
      class: `tool-line ${line.status}`,
      role: 'listitem',
      'data-id': line.id,
      title: line.error ? `${words}: ${line.error}` : words,
    },
    h('vscode-icon', { name, spin: line.status === 'running', 'aria-hidden': 'true' }),
    h('span', { class: 'tool-text' }, words),
    line.error ? h('span', { class: 'tool-error' }, line.error) : null,
  );
}

/** One line per call, in `lines`' order, replacing what the list showed. */
export function fillToolList(list: HTMLElement, S: PanelStrings, lines: readonly ToolLine[]): void {
  list.replaceChildren(...lines.map((l) => toolLineElement(S, l)));
  list.hidden = lines.length === 0;
}

/** A list for a stream's tool calls (hidden while there are none). */
export function toolList(S: PanelStrings, lines: readonly ToolLine[], id?: string, extraClass?: string): HTMLElement {
  const list = h('div', {
    class: extraClass ? `tool-lines ${extraClass}` : 'tool-lines',
    role: 'list',
    'aria-label': S.toolCalls,
    id,
  });
  fillToolList(list, S, lines);
  return list;
}

/** `lines` with `line` in place of the call's earlier report, or added at the end. */
export function upsertLine(lines: readonly ToolLine[], line: ToolLine): ToolLine[] {
  const i = lines.findIndex((l) => l.id === line.id);
  return i < 0 ? [...lines, line] : [...lines.slice(0, i), line, ...lines.slice(i + 1)];
}
