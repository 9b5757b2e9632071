import { webhookDeliveryDecider, type ScheduleDelivery } from '../../../core/webhooks/delivery.js';
import type { WebhookDeliveryEvent } from '../../../core/webhooks/events.js';
import { WebhookProblems } from '../../../core/webhooks/problems.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const given = deciderSpec(webhookDeliveryDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
/** The schedule of the contract: 30 s doubling, capped at an hour, for a day. */
const retry = { firstMs: 30_000, maxMs: 3_600_000, forMs: 24 * 3_600_000 };

const schedule: ScheduleDelivery = {
  type: 'ScheduleDelivery',
  delivery_id: 'wd_1',
  endpoint_id: 'we_1',
  account_id: 'acc_1',
  mode: 'live',
  event_id: 'evt_1',
  event_type: 'job.succeeded',
  created: 1767225600,
  object: { id: 'job_1', object: 'job' },
  source_event_id: 'source-1',
  at: T0,
};
const { type: _type, at: _at, ...data } = schedule;
const scheduled: WebhookDeliveryEvent = { type: 'WebhookDeliveryScheduled', data: { ...data, scheduled_at: T0 } };
const claimed = (instance: string, attempt: number, seconds: number): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryClaimed',
  data: {
    delivery_id: 'wd_1',
    attempt,
    instance_id: instance,
    claimed_at: at(seconds),
    lease_expires_at: at(seconds + 40),
  },
});
const claim = (instance: string, seconds: number) =>
  ({ type: 'ClaimAttempt', instanceId: instance, at: at(seconds), leaseMs: 40_000 }) as const;
const record = (attempt: number, seconds: number, statusCode: number | null, error: string | null = null) =>
  ({
    type: 'RecordAttempt',
    instanceId: 'i1',
    attempt,
    at: at(seconds),
    statusCode,
    error,
    durationMs: 12,
    retry,
  }) as const;
const attempted = (
  attempt: number,
  seconds: number,
  status_code: number | null,
  next: number | null,
  error: string | null = null,
): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    delivery_id: 'wd_1',
    attempt,
    at: at(seconds),
    status_code,
    error,
    duration_ms: 12,
    next_attempt_at: next === null ? null : at(next),
  },
});

describe('webhook delivery decider', () => {
  it('is scheduled once, however often the same delivery is scheduled again', () => {
    given([]).when(schedule).then([scheduled]);
    given([scheduled])
      .when({ ...schedule, at: at(5) })
      .then([]);
  });

  it('lets one instance claim a due attempt; another may not until the claim expires', () => {
    given([scheduled])
      .when(claim('i1', 0))
      .then([claimed('i1', 1, 0)]);
    given([scheduled, claimed('i1', 1, 0)])
      .when(claim('i2', 39))
      .thenThrows(WebhookProblems.notClaimable);
    // The holder died without an outcome: the same attempt is made again by another.
    given([scheduled, claimed('i1', 1, 0)])
      .when(claim('i2', 40))
      .then([claimed('i2', 1, 40)]);
  });

  it('succeeds on a 2xx', () => {
    given([scheduled, claimed('i1', 1, 0)])
      .when(record(1, 1, 204))
      .then([
        attempted(1, 1, 204, null),
        { type: 'WebhookDeliverySucceeded', data: { delivery_id: 'wd_1', attempts: 1, succeeded_at: at(1) } },
      ]);
  });

  it('retries anything else after 30 s, doubling, and is not due before then', () => {
    given([scheduled, claimed('i1', 1, 0)])
      .when(record(1, 1, 500))
      .then([attempted(1, 1, 500, 31)]);
    given([scheduled, claimed('i1', 1, 0), attempted(1, 1, 500, 31)])
      .when(claim('i1', 30))
      .thenThrows(WebhookProblems.notClaimable);
    given([scheduled, claimed('i1', 1, 0), attempted(1, 1, 500, 31), claimed('i1', 2, 31)])
      .when(record(2, 32, null, 'ECONNREFUSED'))
      .then([attempted(2, 32, null, 92, 'ECONNREFUSED')]);
    given([scheduled, claimed('i1', 3, 0)])
      .when(record(3, 0, 302))
      .then([attempted(3, 0, 302, 120)]);
  });

  it('waits at most an hour between attempts, and gives up a day after it was scheduled', () => {
    given([scheduled, claimed('i1', 12, 0)])
      .when(record(12, 0, 500))
      .then([attempted(12, 0, 500, 3600)]);
    const late = 24 * 3600 - 60;
    given([scheduled, claimed('i1', 30, late)])
      .when(record(30, late, 500))
      .then([
        attempted(30, late, 500, null),
        {
          type: 'WebhookDeliveryFailed',
          data: { delivery_id: 'wd_1', attempts: 30, failed_at: at(late), reason: 'gave up after 30 attempts' },
        },
      ]);
  });

  it('records an outcome only from the instance holding that attempt', () => {
    given([scheduled, claimed('i1', 1, 0), claimed('i2', 1, 40)])
      .when(record(1, 41, 200))
      .thenThrows(WebhookProblems.claimLost);
    given([scheduled])
      .when(record(1, 0, 200))
      .thenThrows(WebhookProblems.claimLost);
  });

  it('is abandoned while pending (its endpoint deleted), and never after it ended', () => {
    const abandon = { type: 'AbandonDelivery', at: at(5), reason: 'the endpoint was deleted' } as const;
    const failed: WebhookDeliveryEvent = {
      type: 'WebhookDeliveryFailed',
      data: { delivery_id: 'wd_1', attempts: 1, failed_at: at(5), reason: 'the endpoint was deleted' },
    };
    given([scheduled, claimed('i1', 1, 0), attempted(1, 1, 500, 31)])
      .when(abandon)
      .then([failed]);
    given([scheduled, claimed('i1', 1, 0), attempted(1, 1, 500, 31), failed])
      .when(abandon)
      .then([]);
    given([scheduled, failed]).when(claim('i1', 60)).thenThrows(WebhookProblems.notClaimable);
  });
});
