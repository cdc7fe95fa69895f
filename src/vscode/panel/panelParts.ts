// What a feature gives the agent panel (agentPanel.ts): its inbound messages and their handler, its
// state slice and when it changes, its streams. Features register themselves with the panel; the
// panel knows none of them by name. No vscode import (only its types): unit-tested.
import type * as vscode from 'vscode';
import type { ToolLine } from '../../core/tools/toolLines';
import type { FeatureId, InboundSet, StreamId } from '../../shared/protocol/common';
import type { PanelSlices } from '../../shared/protocol/panel';
import { Disposable, Emitter, type DisposableLike } from '../base/lifecycle';

/** A piece of a session's stream: model text (`at` = how much text came before it), or a tool call. */
export type StreamChunk =
  { stream: StreamId; kind: 'text'; at: number; text: string } | { stream: StreamId; kind: 'tool'; line: ToolLine };

export interface PanelFeature<K extends FeatureId = FeatureId, M extends { type: string } = { type: string }> {
  readonly id: K;
  readonly inbound: InboundSet<M>;
  /** `current()` has a new value. */
  readonly onDidChange: vscode.Event<void>;
  readonly onDidStream?: vscode.Event<StreamChunk>;
  /** Resolves when `current()` has the slice (the first call reads what a reload left). */
  load(): Promise<void>;
  /** The slice now; undefined until loaded. */
  current(): PanelSlices[K] | undefined;
  handle(message: M): Promise<void>;
}

/** What a feature's controller is: routes its messages, holds its slice, says when it changed. */
export interface FeatureController<S, M> extends DisposableLike {
  readonly state: S;
  readonly onDidChange: vscode.Event<void>;
  readonly onDidStream: vscode.Event<StreamChunk>;
  /** What a reload left (the session in the workspace), read once; again after `trustGranted`. */
  restore(): Promise<void>;
  handle(message: M): Promise<void>;
}

/**
 * A feature whose controller is made on first use (its code is a bundle of its own, loaded then):
 * when the panel first asks for its slice, or a message or a command needs it.
 */
export class LazyFeature<
  K extends FeatureId,
  M extends { type: string },
  C extends FeatureController<PanelSlices[K], M>,
>
  extends Disposable
  implements PanelFeature<K, M>
{
  private made: Promise<C> | undefined;
  private loaded: C | undefined;
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly streamed = this._register(new Emitter<StreamChunk>());
  readonly onDidStream = this.streamed.event;

  constructor(
    readonly id: K,
    readonly inbound: InboundSet<M>,
    private readonly make: () => Promise<C>,
  ) {
    super();
  }

  /** The controller, made (once) and restored. */
  async controller(): Promise<C> {
    const controller = await (this.made ??= this.make().then(
      (c) => {
        if (this.isDisposed) {
          c.dispose();
          throw new Error(`the ${this.id} feature was disposed while it loaded`);
        }
        this._register(c);
        this._register(c.onDidChange(() => this.changed.fire()));
        this._register(c.onDidStream((chunk) => this.streamed.fire(chunk)));
        this.loaded = c;
        return c;
      },
      (err: unknown) => {
        this.made = undefined;
        throw err;
      },
    ));
    await controller.restore();
    return controller;
  }

  /** The controller if it is made, without making it. */
  get ifLoaded(): C | undefined {
    return this.loaded;
  }

  async load(): Promise<void> {
    await this.controller();
  }

  current(): PanelSlices[K] | undefined {
    return this.loaded?.state;
  }

  async handle(message: M): Promise<void> {
    await (await this.controller()).handle(message);
  }
}

/**
 * A feature whose slice is read from somewhere (the workspace, the model service): read again when
 * one of `changes` fires; the newest read wins, and the panel is told once it is in.
 */
export class ComputedFeature<K extends FeatureId, M extends { type: string }>
  extends Disposable
  implements PanelFeature<K, M>
{
  private value: PanelSlices[K] | undefined;
  private first: Promise<void> | undefined;
  private generation = 0;
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    readonly id: K,
    readonly inbound: InboundSet<M>,
    private readonly compute: () => Promise<PanelSlices[K]>,
    changes: readonly vscode.Event<unknown>[],
    private readonly handler: (message: M) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {
    super();
    for (const change of changes) this._register(change(() => void this.refresh()));
  }

  load(): Promise<void> {
    return (this.first ??= this.read());
  }

  current(): PanelSlices[K] | undefined {
    return this.value;
  }

  handle(message: M): Promise<void> {
    return this.handler(message);
  }

  /** Reads the slice again, once something has asked for it (until then a change costs nothing). */
  refresh(): Promise<void> {
    return this.first === undefined ? Promise.resolve() : this.read();
  }

  private async read(): Promise<void> {
    const generation = ++this.generation;
    try {
      const value = await this.compute();
      if (generation !== this.generation || this.isDisposed) return;
      this.value = value;
      this.changed.fire();
    } catch (err) {
      this.onError(err);
    }
  }
}
