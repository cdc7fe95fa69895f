// Disposables and events, the way VS Code's own code keeps them: whatever a class subscribes to or
// creates is registered on the line that makes it (`this._register(…)`) and goes when the class is
// disposed. No vscode import (only its types): the controllers built on it run in unit tests.
import type * as vscode from 'vscode';

export interface DisposableLike {
  dispose(): unknown;
}

export function toDisposable(dispose: () => void): DisposableLike {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Disposables disposed together, newest first; one added after disposal is disposed at once. */
export class DisposableStore implements DisposableLike {
  private readonly items = new Set<DisposableLike>();
  private disposed = false;

  add<T extends DisposableLike>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  /** Disposes `item` now and forgets it. */
  delete(item: DisposableLike): void {
    if (this.items.delete(item)) item.dispose();
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Disposes what it holds now, newest first, and stays in use. */
  clear(): void {
    const items = [...this.items].reverse();
    this.items.clear();
    for (const item of items) item.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed to dispose');
  }
}

/** The base of everything that holds subscriptions (VS Code's `Disposable` in its own sources). */
export abstract class Disposable implements DisposableLike {
  readonly #registered = new DisposableStore();

  protected _register<T extends DisposableLike>(item: T): T {
    return this.#registered.add(item);
  }

  protected get isDisposed(): boolean {
    return this.#registered.isDisposed;
  }

  dispose(): void {
    this.#registered.dispose();
  }
}

/** An event source: `event` is a `vscode.Event`, so a class can expose one without the vscode module. */
export class Emitter<T> implements DisposableLike {
  private listeners: Array<(e: T) => unknown> | undefined = [];

  readonly event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound = thisArgs === undefined ? listener : (e: T) => listener.call(thisArgs, e);
    this.listeners?.push(bound);
    const subscription = toDisposable(() => {
      const i = this.listeners?.indexOf(bound) ?? -1;
      if (i >= 0) this.listeners!.splice(i, 1);
    });
    disposables?.push(subscription as vscode.Disposable);
    return subscription as vscode.Disposable;
  };

  /** Calls every listener; one that throws does not keep the others from hearing (its error is rethrown apart). */
  fire(e: T): void {
    for (const listener of [...(this.listeners ?? [])]) {
      try {
        listener(e);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  get hasListeners(): boolean {
    return (this.listeners?.length ?? 0) > 0;
  }

  dispose(): void {
    this.listeners = undefined;
  }
}
