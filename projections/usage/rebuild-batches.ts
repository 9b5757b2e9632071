import type { RecordedEvent } from '../../core/events/envelope.js';
import type { EventRegistry } from '../../core/events/registry.js';
import { addUsageChanges, type UsageChange } from './usage-changes.js';

/** What a rebuild writes through: the table itself (table-writer.ts), or a worker thread's connection to it. */
export interface RebuildWriter {
  reset(): Promise<void>;
  /** Changes for the next `apply`, in order: handed over a page at a time, so that none outlives its page here. */
  add(changes: readonly UsageChange[]): void;
  /**
   * The changes added since the last apply, in one transaction, with the checkpoint they bring the table to; as
   * `UsageRecordTable.apply`, false and nothing applied if the checkpoint is no longer `after`.
   */
  apply(after: number, checkpoint: number): Promise<boolean>;
  /** Builds what the reset left out (`UsageRecordTable.rebuilt`), then lets go of the table. */
  close(): Promise<void>;
}

/**
 * Events per transaction of a rebuild: a batch's records land on every account's pages, which a commit writes once
 * however many records it holds (docs/performance.md). Only the batch's changes are kept meanwhile, not its events.
 */
const REBUILD_BATCH = 100_000;

/**
 * A rebuild's events, from the first, turned into changes a page at a time and applied by the writer a batch at a
 * time: while the writer applies one batch (a worker thread, on sqlite), the next is gathered; the one after waits.
 */
export class RebuildBatches {
  private events = 0;
  /** The table's checkpoint once the batches handed over are applied: 0 after the reset. */
  private after = 0;
  private checkpoint = 0;
  private applying: Promise<boolean> | null = null;
  /** Another writer moved the checkpoint: the catch-up after the rebuild goes on from where it is. */
  private refused = false;

  constructor(
    private readonly writer: RebuildWriter,
    private readonly registry: EventRegistry,
    private readonly batch = REBUILD_BATCH,
  ) {}

  /** `last`: no page follows, so the batch is handed over at once, to be applied while the reader finishes. */
  async add(events: readonly RecordedEvent[], last = false): Promise<void> {
    if (this.refused) return;
    const changes: UsageChange[] = [];
    addUsageChanges(changes, events, this.registry);
    if (changes.length > 0) this.writer.add(changes);
    if (events.length > 0) this.checkpoint = events.at(-1)!.position;
    this.events += events.length;
    if (this.events >= this.batch || last) await this.handOver();
  }

  /** Resolves once every batch is applied, or one was refused. */
  async end(): Promise<void> {
    await this.handOver();
    await this.settled();
  }

  private async handOver(): Promise<void> {
    await this.settled();
    if (this.refused || this.checkpoint === this.after) return;
    this.applying = this.writer.apply(this.after, this.checkpoint);
    this.after = this.checkpoint;
    this.events = 0;
  }

  private async settled(): Promise<void> {
    const applying = this.applying;
    this.applying = null;
    if (applying && !(await applying)) this.refused = true;
  }
}
