import type { Clock } from '../../src/core/clock';

/** A clock that moves only when told to. */
export class FakeClock implements Clock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
