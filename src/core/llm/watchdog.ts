// The timers that bound one attempt of a model call, shared by the providers. A provider hands
// `signal` to its transport instead of the caller's: it aborts when the caller cancels or when the
// limit armed last runs out, and `expired` then says which limit it was, so the provider can tell
// a timeout (a failed attempt, maybe retried) from a cancel (the caller's wish, never an error).

export class Watchdog<Limit extends string> {
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal;
  readonly #onOuterAbort = () => this.#controller.abort();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired: Limit | undefined;

  constructor(outer: AbortSignal) {
    this.#outer = outer;
    if (outer.aborted) this.#controller.abort();
    else outer.addEventListener('abort', this.#onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The limit that ran out and aborted the attempt; undefined while none has. */
  get expired(): Limit | undefined {
    return this.#expired;
  }

  /** (Re)starts the clock: unless `hold` or `arm` comes first, the attempt is aborted after `ms`. */
  arm(limit: Limit, ms: number): void {
    this.hold();
    if (this.#controller.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#expired = limit;
      this.#controller.abort();
    }, ms);
  }

  /**
   * Stops the clock, e.g. while the caller handles an event: a slow consumer is not a silent
   * server, and the transport buffers what arrives meanwhile.
   */
  hold(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.hold();
    this.#outer.removeEventListener('abort', this.#onOuterAbort);
  }

  /**
   * `promise`, or a rejection with `Aborted` as soon as the attempt is aborted, for transports
   * that may not stop when told to. The abandoned promise is left to settle unobserved.
   */
  race<T>(promise: PromiseLike<T>): Promise<T> {
    const signal = this.#controller.signal;
    const settled = Promise.resolve(promise);
    settled.catch(() => undefined);
    if (signal.aborted) return Promise.reject(new Aborted());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Aborted());
      signal.addEventListener('abort', onAbort, { once: true });
      settled.then(
        (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
        (err: unknown) => (signal.removeEventListener('abort', onAbort), reject(err)),
      );
    });
  }
}

/** What `Watchdog.race` rejects with; look at `expired` and the caller's signal to know why. */
export class Aborted extends Error {
  override readonly name = 'Aborted';
  constructor() {
    super('the model call was aborted');
  }
}

/** Waits `ms`, or less if `signal` aborts first; never rejects. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
