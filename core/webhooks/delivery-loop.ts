import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { Mode } from '../events/envelope.js';
import type { CommandHandler } from '../commands/command-handler.js';
import { ProblemError } from '../problems.js';
import { webhookDeliveryDecider, webhookDeliveryStream, type DeliveryCommand, type DeliveryState } from './delivery.js';
import type { WebhooksReadModel } from './ports.js';
import { webhookBody } from './payload.js';
import type { RetrySchedule } from './retry-schedule.js';
import { send, type SendOutcome } from './send.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import type { WebhookSecrets } from './signing-key.js';
import type { UrlGuard } from './url-guard.js';
import type { WebhookDeliveryScheduled } from './events.js';

type Scheduled = WebhookDeliveryScheduled['data'];

export interface DeliveryLoopOptions {
  commands: CommandHandler;
  clock: Clock;
  /** The webhooks read model as it is now: where due deliveries and endpoints' URLs are found. */
  webhooks: () => WebhooksReadModel;
  secrets: WebhookSecrets;
  guard: UrlGuard;
  retry: RetrySchedule;
  /** One attempt, DNS to the answer's status, is cut at this. */
  timeoutMs: number;
  /** Attempts this instance makes at once. */
  concurrency: number;
  /** Bytes of an answer read before it is dropped (default 64 KiB). */
  maxResponseBytes?: number;
  /** How often due deliveries are looked for (default 200 ms). */
  pollMs?: number;
  instanceId?: string;
  onError?: (error: unknown) => void;
}

/** Past the attempt's own time limit, what the claim leaves for recording its outcome. */
const CLAIM_MARGIN_MS = 30_000;

/**
 * One per instance: sends due deliveries in the background, at most `concurrency` at once, so that no
 * request and no job ever waits for a receiver. Each attempt is first claimed by an append at the
 * delivery stream's revision (of two instances, one wins, as jobs are claimed), then sent, then its
 * outcome recorded; an instance that dies in between leaves a claim that expires, and the attempt is
 * made again (at least once).
 */
export class WebhookDeliveryLoop {
  readonly instanceId: string;
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: DeliveryLoopOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  start(): void {
    this.loop ??= this.follow();
  }

  /** Stops looking for work and cuts the attempts in flight short; their claims expire for another instance. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await Promise.all(this.active.values());
  }

  private async follow(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await this.tick();
      } catch (error) {
        this.options.onError?.(error);
      }
      await sleep(this.options.pollMs ?? 200, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  private async tick(): Promise<void> {
    const { concurrency } = this.options;
    if (this.active.size >= concurrency) return;
    const now = this.options.clock.now();
    for (const due of this.options.webhooks().dueDeliveries(now, concurrency + this.active.size)) {
      if (this.active.size >= concurrency || this.stopping.signal.aborted) break;
      if (this.active.has(due.id)) continue;
      const endpoint = this.options.webhooks().endpoint(due.endpoint_id);
      if (!endpoint) continue;
      if (endpoint.deleted_at !== null) {
        await this.command(due.id, due.mode, {
          type: 'AbandonDelivery',
          at: now.toISOString(),
          reason: 'the endpoint was deleted',
        });
        continue;
      }
      const claimed = await this.command(due.id, due.mode, {
        type: 'ClaimAttempt',
        instanceId: this.instanceId,
        at: this.options.clock.now().toISOString(),
        leaseMs: this.options.timeoutMs + CLAIM_MARGIN_MS,
      });
      if (!claimed?.scheduled || !claimed.claim) continue;
      const run = this.attempt(claimed.scheduled, claimed.claim.attempt, endpoint.url)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => this.active.delete(due.id));
      this.active.set(due.id, run);
    }
  }

  private async attempt(scheduled: Scheduled, attempt: number, url: string): Promise<void> {
    const started = Date.now();
    // One deadline for the whole attempt, resolving the host included; it also cuts a slow answer's body short.
    const deadline = new AbortController();
    const { timeoutMs } = this.options;
    setTimeout(() => deadline.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref();
    const stopped = () => deadline.abort(new Error('the instance stopped during the attempt'));
    this.stopping.signal.addEventListener('abort', stopped, { once: true });
    let outcome: SendOutcome;
    try {
      outcome = await this.send(scheduled, url, deadline.signal);
    } finally {
      this.stopping.signal.removeEventListener('abort', stopped);
    }
    // Cut short by a shutdown: nothing is known of the receiver, so the claim is left to expire.
    if (this.stopping.signal.aborted) return;
    await this.command(scheduled.delivery_id, scheduled.mode, {
      type: 'RecordAttempt',
      instanceId: this.instanceId,
      attempt,
      at: this.options.clock.now().toISOString(),
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: Date.now() - started,
      retry: this.options.retry,
    });
  }

  /** The URL is checked again now (its host may resolve elsewhere since), and the connection pinned to what passed. */
  private async send(scheduled: Scheduled, url: string, signal: AbortSignal): Promise<SendOutcome> {
    let target;
    try {
      target = await this.options.guard.check(url);
    } catch (error) {
      if (error instanceof ProblemError) return { statusCode: null, error: error.detail };
      throw error;
    }
    const body = webhookBody(scheduled);
    const timestamp = Math.floor(this.options.clock.now().getTime() / 1000);
    const secret = this.options.secrets.secretFor(scheduled.endpoint_id);
    const headers = {
      [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
      'Finsynth-Event-Id': scheduled.event_id,
    };
    return send(target, body, headers, { maxResponseBytes: this.options.maxResponseBytes ?? 64 * 1024, signal });
  }

  /** A command another instance beat us to is refused with a problem: not an error, just not ours. */
  private async command(deliveryId: string, mode: Mode, command: DeliveryCommand): Promise<DeliveryState | null> {
    try {
      const stream = webhookDeliveryStream(deliveryId);
      const result = await this.options.commands.handle(webhookDeliveryDecider, stream, command, {
        metadata: { mode },
      });
      return result.state;
    } catch (error) {
      if (error instanceof ProblemError) return null;
      throw error;
    }
  }
}
