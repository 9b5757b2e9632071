import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordedEvent } from '../../core/events/envelope.js';
import type { EventRegistry } from '../../core/events/registry.js';
import type { EventStore } from '../../core/store/event-store.js';
import { defineProblem, problem } from '../../core/problems.js';
import type { Projection } from './projection.js';
import { snapshotStoreFor } from './snapshot-for-store.js';
import type { SnapshotStore } from './snapshot-store.js';

export const ProjectionLag = defineProblem({
  slug: 'projection-lag',
  title: 'Service Unavailable',
  status: 503,
  description:
    "A read model did not catch up with this request's own write within the bounded wait. Nothing is lost; " +
    'retry after the Retry-After delay.',
});

export interface ProjectionFailure {
  /** Global position of the event the projection could not apply. */
  position: number;
  event_type: string;
  message: string;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  /** Global position of the last event applied (or skipped as not handled). */
  checkpoint: number;
  /** Positions between the checkpoint and the store's head at the last catch-up; events on sqlite and memory. */
  lag: number;
  /** Set once the projection has stopped on an event; it stays stopped until rebuilt or restarted. */
  error: ProjectionFailure | null;
}

/**
 * Writing snapshots takes at most about a twentieth of the runner's time: a state that takes a second to write (the
 * jobs of a large service, each snapshot whole) is written every twenty seconds, not every second.
 */
const SNAPSHOT_SHARE = 20;

export interface RunnerOptions {
  /**
   * How often the runner looks for events written by other processes and instances. Keep it at most 200 ms, so that
   * a revoked key stops working on every instance within a second.
   */
  pollIntervalMs?: number;
  /**
   * Snapshots are written at most this often while running (and no sooner than twenty times the last one took to
   * write), and always on stop.
   */
  snapshotIntervalMs?: number;
  batchSize?: number;
  /** Errors of the store met by the background loop; it keeps polling. */
  onError?: (error: unknown) => void;
}

/** Takes a page of events read in order from the first; `last`: the page that reached the store's head. */
export type PageReader = (events: readonly RecordedEvent[], last: boolean) => Promise<void>;

interface Slot {
  projection: Projection<unknown>;
  handles: ReadonlySet<string>;
  state: unknown;
  checkpoint: number;
  failure: ProjectionFailure | null;
  /** Applied past the last saved snapshot. */
  dirty: boolean;
}

/**
 * Feeds every projection the events of the store, in global order, from the checkpoint of its
 * snapshot. One catch-up pass runs at a time; the background loop starts one per poll interval and
 * `waitFor` starts one at once, so read-your-writes does not wait for the next poll.
 *
 * A projection whose apply (or the upcast before it) throws stops at that event and reports it in
 * `status()`; the others go on. `waitFor` waits for the projections that are running, so one broken
 * read model does not take every read-your-writes endpoint down with it; /readyz shows the failure.
 */
export class ProjectionRunner {
  private readonly slots: Slot[];
  private readonly snapshots: SnapshotStore;
  private readonly pollIntervalMs: number;
  private readonly snapshotIntervalMs: number;
  private readonly batchSize: number;
  private readonly onError: (error: unknown) => void;
  /** Whether the last pass failed: a failure while this holds belongs to an outage already reported. */
  private outage = false;
  private loaded: Promise<void> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private queuedPass: Promise<void> | null = null;
  /** The head read under way, and the one that starts when it ends (headAfterNow). */
  private headRead: Promise<number> | null = null;
  private nextHeadRead: Promise<number> | null = null;
  private head = 0;
  private lastSavedAt = 0;
  /** How long the last snapshots took to write: a large state's waits longer before the next. */
  private lastSaveMs = 0;
  private loop: { controller: AbortController; done: Promise<void> } | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly registry: EventRegistry,
    projections: readonly Projection<unknown>[],
    snapshots?: SnapshotStore,
    options: RunnerOptions = {},
  ) {
    const names = new Set<string>();
    for (const { name } of projections) {
      if (names.has(name)) throw new Error(`projection "${name}" is listed twice`);
      names.add(name);
    }
    this.slots = projections.map((projection) => ({
      projection,
      handles: new Set(projection.handles),
      state: projection.initialState(),
      checkpoint: 0,
      failure: null,
      dirty: false,
    }));
    this.snapshots = snapshots ?? snapshotStoreFor(store);
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.snapshotIntervalMs = options.snapshotIntervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 1000;
    this.onError = options.onError ?? (() => {});
  }

  /** Loads the snapshots, catches up with the store, then follows it. */
  async start(): Promise<void> {
    if (this.loop) return;
    await this.catchUp();
    const controller = new AbortController();
    this.loop = { controller, done: this.follow(controller.signal) };
  }

  /**
   * Stops following and writes the snapshots of everything applied. A store that cannot take them is reported,
   * not thrown: snapshots only shorten the next start's catch-up, and shutdown must finish during an outage.
   */
  async stop(): Promise<void> {
    if (this.loop) {
      this.loop.controller.abort();
      await this.loop.done;
      this.loop = undefined;
    }
    await this.serial(() => this.saveSnapshots()).catch((error: unknown) => this.onError(error));
  }

  state<S>(name: string): S {
    return this.slot(name).state as S;
  }

  status(): ProjectionStatus[] {
    return this.slots.map((slot) => ({
      name: slot.projection.name,
      version: slot.projection.version,
      checkpoint: slot.checkpoint,
      lag: Math.max(0, this.head - slot.checkpoint),
      error: slot.failure,
    }));
  }

  /**
   * Read-your-writes: resolves once every running projection has applied the event at `position` (the
   * position a command's append returned). Starts a catch-up at once. After `timeoutMs` it throws a
   * ProblemError `projection-lag` (503, Retry-After: 1) rather than let an endpoint answer from a read
   * model that does not yet show the request's own write.
   */
  async waitFor(position: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.hasPassed(position)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw problem(
          ProjectionLag,
          `read models have not reached position ${position} within ${timeoutMs} ms`,
          {},
          { 'Retry-After': '1' },
        );
      }
      const finished = await settlesWithin(this.catchUp(), remaining);
      // A full pass did not reach it: the event is not visible yet (another instance's transaction is still
      // committing).
      if (finished && !this.hasPassed(position)) await delay(Math.min(10, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * Resolves once every running projection has applied what the store held when called: what another process or
   * instance wrote a moment ago, which the next poll would bring. Throws as `waitFor` does.
   */
  async waitForHead(timeoutMs?: number): Promise<void> {
    await this.waitFor(await this.headAfterNow(), timeoutMs);
  }

  /**
   * The store's head as read after this call. Calls while a read is under way share the one that starts after it,
   * so that requests with unknown keys, however many at once, cost the store two reads at a time, not one each.
   */
  private headAfterNow(): Promise<number> {
    if (!this.headRead) return this.readHead();
    this.nextHeadRead ??= this.headRead.then(
      () => this.readHead(),
      () => this.readHead(),
    );
    return this.nextHeadRead;
  }

  private readHead(): Promise<number> {
    this.nextHeadRead = null;
    const read = this.store.headPosition().finally(() => {
      if (this.headRead === read) this.headRead = null;
    });
    this.headRead = read;
    return read;
  }

  /** Whether every projection would replay from the first event: none has a snapshot of its version. */
  async fromScratch(): Promise<boolean> {
    await this.serial(() => this.load());
    return this.slots.every((slot) => slot.checkpoint === 0);
  }

  /** Replays the named projection (or all) from the first event, clearing a failure, and snapshots the result. */
  async rebuild(name?: string): Promise<void> {
    const targets = name === undefined ? this.slots : [this.slot(name)];
    await this.serial(async () => {
      await this.load();
      for (const slot of targets) this.reset(slot);
    });
    await this.catchUp();
    await this.serial(() => this.saveSnapshots());
  }

  /**
   * Replays every projection from the first event, clearing failures, and hands each page it reads to `alongside`,
   * which rebuilds another read model from the same read (the usage records): the events are read and parsed once.
   * A page is read only once `alongside` has taken the one before; `last` marks the page that reached the head.
   */
  async rebuildAll(alongside: PageReader): Promise<void> {
    await this.serial(async () => {
      await this.load();
      for (const slot of this.slots) this.reset(slot);
      await this.pass(alongside);
    });
    await this.serial(() => this.saveSnapshots());
  }

  /** One pass to the store's current head; passes requested while one is queued share it. */
  private catchUp(): Promise<void> {
    if (!this.queuedPass) {
      this.queuedPass = this.serial(async () => {
        this.queuedPass = null;
        await this.load();
        await this.pass();
      });
    }
    return this.queuedPass;
  }

  private async pass(alongside?: PageReader): Promise<void> {
    for (;;) {
      const running = this.slots.filter((slot) => !slot.failure);
      if (running.length === 0) break;
      const after = Math.min(...running.map((slot) => slot.checkpoint));
      const events = await this.store.readAll({ after, maxCount: this.batchSize });
      for (const event of events) this.dispatch(event);
      if (alongside) await alongside(events, events.length < this.batchSize);
      if (events.length < this.batchSize) break;
      // A synchronous store's read never leaves the event loop a turn: a long catch-up would hold up requests,
      // timers and a worker's start (the usage records' rebuild) until it ended.
      await nextTurn();
    }
    this.head = await this.store.headPosition();
    this.outage = false;
    const interval = Math.max(this.snapshotIntervalMs, SNAPSHOT_SHARE * this.lastSaveMs);
    if (Date.now() - this.lastSavedAt >= interval) await this.saveSnapshots();
  }

  private dispatch(event: RecordedEvent): void {
    let upcast: RecordedEvent | undefined;
    for (const slot of this.slots) {
      if (slot.failure || slot.checkpoint >= event.position) continue;
      if (slot.handles.has(event.type)) {
        try {
          upcast ??= this.registry.upcast(event);
          slot.state = slot.projection.apply(slot.state, upcast);
        } catch (error) {
          slot.failure = {
            position: event.position,
            event_type: event.type,
            message: error instanceof Error ? error.message : String(error),
          };
          continue;
        }
      }
      slot.checkpoint = event.position;
      slot.dirty = true;
    }
  }

  /** Snapshots of stopped projections are not written: their state may hold half of the failed apply. */
  private async saveSnapshots(): Promise<void> {
    const due = this.slots.filter((slot) => slot.dirty && !slot.failure);
    this.lastSavedAt = Date.now();
    if (due.length === 0) return;
    const started = performance.now();
    await this.snapshots.save(
      due.map((slot) => ({
        name: slot.projection.name,
        version: slot.projection.version,
        position: slot.checkpoint,
        state: slot.projection.toJSON(slot.state),
      })),
    );
    this.lastSaveMs = performance.now() - started;
    for (const slot of due) slot.dirty = false;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      for (const slot of this.slots) {
        const snapshot = await this.snapshots.load(slot.projection.name);
        if (snapshot && snapshot.version === slot.projection.version) {
          slot.state = slot.projection.fromJSON(snapshot.state);
          slot.checkpoint = snapshot.position;
        } else if (snapshot) {
          this.reset(slot);
        }
      }
    })();
    return this.loaded;
  }

  private reset(slot: Slot): void {
    slot.state = slot.projection.initialState();
    slot.checkpoint = 0;
    slot.failure = null;
    slot.dirty = true;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await delay(this.pollIntervalMs, signal);
      if (signal.aborted) break;
      await this.catchUp().catch((error: unknown) => {
        // An outage fails every poll until the store is back: its first failure is reported, not each one.
        if (!this.outage) this.onError(error);
        this.outage = true;
      });
    }
  }

  private hasPassed(position: number): boolean {
    return this.slots.every((slot) => slot.failure !== null || slot.checkpoint >= position);
  }

  /** Runs tasks one after the other: passes, resets and snapshot writes never interleave. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }

  private slot(name: string): Slot {
    const slot = this.slots.find((candidate) => candidate.projection.name === name);
    if (!slot) throw new Error(`no projection is named "${name}"`);
    return slot;
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** True if `work` settled within `ms`; its rejection propagates. The timer never outlives the race. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
