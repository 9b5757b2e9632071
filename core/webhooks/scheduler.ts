import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { RecordedEvent } from '../events/envelope.js';
import type { EventRegistry } from '../events/registry.js';
import type { EventStore, Subscription } from '../store/event-store.js';
import { webhookDeliveryDecider, webhookDeliveryStream } from './delivery.js';
import { deliveryId } from './ids.js';
import type { SchedulerCheckpoints } from './ports.js';
import {
  applyToScheduler,
  initialSchedulerState,
  plannedDeliveries,
  SCHEDULER_HANDLES,
  schedulerStateFromJSON,
  schedulerStateToJSON,
  type PlannedDelivery,
  type SchedulerState,
} from './scheduler-state.js';

export interface WebhookSchedulerOptions {
  store: EventStore;
  registry: EventRegistry;
  commands: CommandHandler;
  clock: Clock;
  checkpoints: SchedulerCheckpoints;
  errorTypeBase: string;
  /** The state is saved at most this often while running, and always on stop (default 1 s). */
  saveIntervalMs?: number;
  /** How long after a failure (the store unreachable) the subscription is opened again (default 1 s). */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The reactor that turns events into deliveries. It follows the store from its checkpoint, folds what it
 * needs (scheduler-state.ts) and, for each event that concerns endpoints, schedules one delivery per
 * endpoint: the delivery's id is derived from the endpoint and the source event, and its stream is
 * written only if it has no event yet, so a replay, or every instance of a fleet doing the same, schedules
 * each delivery once. An event is folded, and the checkpoint moved past it, only once its deliveries are
 * in the store; a failure resumes from there.
 */
export class WebhookScheduler {
  private state: SchedulerState = initialSchedulerState();
  private position = 0;
  private savedPosition = 0;
  private lastSave = 0;
  private subscription: Subscription | undefined;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: WebhookSchedulerOptions) {}

  /** Loads the saved state, then follows the store in the background. */
  async start(): Promise<void> {
    if (this.loop) return;
    const saved = await this.options.checkpoints.load();
    if (saved) {
      this.state = schedulerStateFromJSON(saved.state);
      this.position = this.savedPosition = saved.position;
    }
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.subscription?.close();
    await this.loop;
    // A checkpoint the store cannot take now loses nothing: scheduling again from an older one is idempotent.
    await this.save().catch((error: unknown) => this.options.onError?.(error));
  }

  /** The global position read to: every delivery an event up to it causes is scheduled. */
  checkpoint(): number {
    return this.position;
  }

  private async follow(): Promise<void> {
    const { retryMs = 1000, onError = () => {} } = this.options;
    while (!this.stopping.signal.aborted) {
      let stopped = () => {};
      const failed = await new Promise<unknown>((resolve) => {
        this.subscription = this.options.store.subscribeToAll((event) => this.handle(event), {
          after: this.position,
          onError: resolve,
        });
        stopped = () => resolve(null);
        this.stopping.signal.addEventListener('abort', stopped, { once: true });
      });
      this.stopping.signal.removeEventListener('abort', stopped);
      await this.subscription?.close();
      if (this.stopping.signal.aborted) return;
      onError(failed);
      await sleep(retryMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  private async handle(recorded: RecordedEvent): Promise<void> {
    if (SCHEDULER_HANDLES.has(recorded.type)) {
      const event = this.options.registry.upcast(recorded);
      for (const planned of plannedDeliveries(this.state, event, this.options.errorTypeBase))
        await this.schedule(planned, event);
      applyToScheduler(this.state, event);
    }
    this.position = recorded.position;
    if (Date.now() - this.lastSave >= (this.options.saveIntervalMs ?? 1000)) await this.save();
  }

  private async schedule(planned: PlannedDelivery, source: RecordedEvent): Promise<void> {
    const id = deliveryId(planned.endpointId, planned.eventId);
    await this.options.commands.handle(
      webhookDeliveryDecider,
      webhookDeliveryStream(id),
      {
        type: 'ScheduleDelivery',
        delivery_id: id,
        endpoint_id: planned.endpointId,
        account_id: planned.accountId,
        mode: planned.mode,
        event_id: planned.eventId,
        event_type: planned.eventType,
        created: planned.created,
        object: planned.object,
        source_event_id: source.id,
        at: this.options.clock.now().toISOString(),
      },
      { metadata: { mode: planned.mode, causation_id: source.id } },
    );
  }

  private async save(): Promise<void> {
    this.lastSave = Date.now();
    if (this.position === this.savedPosition) return;
    const position = this.position;
    await this.options.checkpoints.save(position, schedulerStateToJSON(this.state));
    this.savedPosition = position;
  }
}
