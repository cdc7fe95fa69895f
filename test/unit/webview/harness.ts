// A panel app over the fake DOM (fakeDom.ts), with the host's side played by the test: what the
// webview tests drive.
import { PANEL_STRINGS, type PanelStrings } from '../../../src/shared/panelStrings';
import type { BriefFields } from '../../../src/shared/protocol/discovery';
import type { PanelSlices, WebviewMessage } from '../../../src/shared/protocol/panel';
import { PanelApp } from '../../../webview/app';
import { BrainstormUi } from '../../../webview/parts/brainstorm/brainstormPart';
import { BuildPart } from '../../../webview/parts/build/buildPart';
import { DiscoveryUi } from '../../../webview/parts/discovery/discoveryPart';
import { JournalForm } from '../../../webview/parts/journal/journalForm';
import type { PanelPart } from '../../../webview/part';
import { JournalPart } from '../../../webview/parts/journal/journalPart';
import { ModelPart } from '../../../webview/parts/llm/modelPart';
import { NoticesPart } from '../../../webview/parts/panel/noticesPart';
import { SleepPart } from '../../../webview/parts/sleep/sleepPart';
import { FakeElement, installFakeDocument } from './fakeDom';
import { BRIEF_FIELDS } from '../../support/brief';

export const S: PanelStrings = { ...PANEL_STRINGS };
export const BRIEF: BriefFields = BRIEF_FIELDS;
export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

export function slices(overrides: Partial<PanelSlices> = {}): PanelSlices {
  return {
    panel: { trusted: true, hasWorkspace: true, notices: [] },
    journal: {
      entries: [{ timestamp: '2026-11-20T10:00:00.000Z', title: 'Retry uploads', description: 'Once.' }],
      total: 1,
      skipped: 0,
    },
    sleep: { sleepers: [{ agent: 'build-qa', mode: 'timer', startedAt: T0, maxDurationMs: 120_000 }] },
    model: { status: 'ready', provider: 'anthropic', complex: 'claude-sonnet-4-6', fast: 'claude-haiku-4-5' },
    discovery: { status: 'idle', actions: ['send'] },
    brainstorm: { status: 'none', actions: ['start', 'resume'] },
    build: { status: 'none' },
    ...overrides,
  };
}

/** A panel app over the fake DOM, with the host's side played by the test. */
export class Harness {
  readonly root = new FakeElement('div');
  readonly posted: WebviewMessage[] = [];
  readonly ticks: Array<() => void> = [];
  clock = T0;
  seq = 0;
  readonly parts: PanelPart[];
  readonly app: PanelApp;

  constructor(override?: (parts: PanelPart[]) => PanelPart[]) {
    installFakeDocument();
    const post = (m: WebviewMessage) => this.posted.push(m);
    const form = new JournalForm(
      { title: '', description: '' },
      {
        onDraft: () => undefined,
        onSubmit: (title, description) => this.app.request({ type: 'journal.add', title, description }),
      },
    );
    const brainstorm = new BrainstormUi({ answers: {}, skipped: {} }, () => undefined);
    const discovery = new DiscoveryUi(
      { composer: '', answers: {}, extra: '' },
      () => undefined,
      (ctx) => brainstorm.entryActions(ctx),
    );
    const ticker = {
      every: (_ms: number, fn: () => void) => (this.ticks.push(fn), () => this.ticks.splice(this.ticks.indexOf(fn), 1)),
    };
    const parts: PanelPart[] = [
      new NoticesPart(),
      new BuildPart(),
      brainstorm,
      discovery,
      new ModelPart(),
      new SleepPart(ticker),
      new JournalPart(form),
    ];
    this.parts = override ? override(parts) : parts;
    this.app = new PanelApp(this.root as unknown as HTMLElement, this.parts, post, () => this.clock);
  }

  /** What the host sends after `ready`: the words, then every slice. */
  open(value: unknown): FakeElement {
    this.app.receive({ type: 'strings', strings: S });
    this.app.receive({ type: 'snapshot', seq: ++this.seq, now: this.clock, slices: value });
    return this.root;
  }

  state<K extends keyof PanelSlices>(feature: K, state: PanelSlices[K] | unknown): void {
    this.app.receive({ type: 'state', seq: ++this.seq, now: this.clock, feature, state });
  }

  append(stream: string, at: number, text: string, seq = ++this.seq): void {
    this.app.receive({ type: 'append', seq, stream, at, text });
  }

  tool(stream: string, line: unknown): void {
    this.app.receive({ type: 'tool', seq: ++this.seq, stream, line });
  }
}
