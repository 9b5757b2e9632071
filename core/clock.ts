/**
 * The one source of "now" for rules that depend on time (subscription periods, renewals, leases).
 * Code that needs time takes a Clock, so tests move time instead of waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance({
    days = 0,
    hours = 0,
    minutes = 0,
    ms = 0,
  }: {
    days?: number;
    hours?: number;
    minutes?: number;
    ms?: number;
  }): void {
    this.current += ((days * 24 + hours) * 60 + minutes) * 60_000 + ms;
  }
}
