import type { Decider } from '../commands/decider.js';
import { fitted } from '../accounts/event-text.js';
import { problem } from '../problems.js';
import type { WebhookDeliveryEvent, WebhookDeliveryScheduled } from './events.js';
import { WebhookProblems } from './problems.js';
import { nextAttemptAt, type RetrySchedule } from './retry-schedule.js';

/**
 * Commands carry their time and lease length, as the job's do: the decider stays pure, and the delivery
 * loop's clock decides when an attempt is due and when a claim runs out.
 */
export type ScheduleDelivery = { type: 'ScheduleDelivery' } & Omit<WebhookDeliveryScheduled['data'], 'scheduled_at'> & {
    at: string;
  };
export type ClaimAttempt = { type: 'ClaimAttempt'; instanceId: string; at: string; leaseMs: number };
export type RecordAttempt = {
  type: 'RecordAttempt';
  instanceId: string;
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  retry: RetrySchedule;
};
/** Gives a pending delivery up for a reason other than its schedule (its endpoint was deleted). */
export type AbandonDelivery = { type: 'AbandonDelivery'; at: string; reason: string };
export type DeliveryCommand = ScheduleDelivery | ClaimAttempt | RecordAttempt | AbandonDelivery;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryClaim {
  instanceId: string;
  attempt: number;
  expiresAt: string;
}

export interface DeliveryState {
  scheduled: WebhookDeliveryScheduled['data'] | null;
  status: DeliveryStatus | null;
  /** Attempts whose outcome is recorded. */
  attempts: number;
  nextAttemptAt: string | null;
  claim: DeliveryClaim | null;
}

export const webhookDeliveryStream = (deliveryId: string): string => `webhook-delivery-${deliveryId}`;

const plus = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();
const isSuccess = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

function decide(command: DeliveryCommand, state: DeliveryState): WebhookDeliveryEvent[] {
  if (command.type === 'ScheduleDelivery') {
    // Scheduled again (a replay, or a second instance): the first one stands.
    if (state.scheduled) return [];
    const { type: _type, at, ...data } = command;
    return [{ type: 'WebhookDeliveryScheduled', data: { ...data, scheduled_at: at } }];
  }
  const scheduled = state.scheduled;
  if (!scheduled) throw problem(WebhookProblems.notClaimable, 'the delivery was never scheduled');
  const delivery_id = scheduled.delivery_id;
  switch (command.type) {
    case 'ClaimAttempt': {
      const held = state.claim !== null && Date.parse(state.claim.expiresAt) > Date.parse(command.at);
      const due = state.nextAttemptAt !== null && Date.parse(state.nextAttemptAt) <= Date.parse(command.at);
      if (state.status !== 'pending' || held || !due)
        throw problem(WebhookProblems.notClaimable, `delivery ${delivery_id} is ${held ? 'held' : state.status}`);
      return [
        {
          type: 'WebhookDeliveryClaimed',
          data: {
            delivery_id,
            // An attempt whose holder died without an outcome is made again under the same number.
            attempt: state.attempts + 1,
            instance_id: command.instanceId,
            claimed_at: command.at,
            lease_expires_at: plus(command.at, command.leaseMs),
          },
        },
      ];
    }
    case 'RecordAttempt': {
      const { claim } = state;
      if (state.status !== 'pending' || claim?.instanceId !== command.instanceId || claim.attempt !== command.attempt)
        throw problem(WebhookProblems.claimLost, `attempt ${command.attempt} of ${delivery_id} is not held here`);
      const succeeded = isSuccess(command.statusCode);
      const next = succeeded ? null : nextAttemptAt(command.retry, scheduled.scheduled_at, command.attempt, command.at);
      const attempted: WebhookDeliveryEvent = {
        type: 'WebhookDeliveryAttempted',
        data: {
          delivery_id,
          attempt: command.attempt,
          at: command.at,
          status_code: command.statusCode,
          error: command.error === null ? null : fitted(command.error),
          duration_ms: Math.max(0, Math.round(command.durationMs)),
          next_attempt_at: next,
        },
      };
      if (succeeded)
        return [
          attempted,
          {
            type: 'WebhookDeliverySucceeded',
            data: { delivery_id, attempts: command.attempt, succeeded_at: command.at },
          },
        ];
      if (next !== null) return [attempted];
      const reason = `gave up after ${command.attempt} attempts`;
      return [
        attempted,
        {
          type: 'WebhookDeliveryFailed',
          data: { delivery_id, attempts: command.attempt, failed_at: command.at, reason },
        },
      ];
    }
    case 'AbandonDelivery':
      if (state.status !== 'pending') return [];
      return [
        {
          type: 'WebhookDeliveryFailed',
          data: { delivery_id, attempts: state.attempts, failed_at: command.at, reason: fitted(command.reason) },
        },
      ];
  }
}

function evolve(state: DeliveryState, event: WebhookDeliveryEvent): DeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled':
      return { ...state, scheduled: event.data, status: 'pending', nextAttemptAt: event.data.scheduled_at };
    case 'WebhookDeliveryClaimed': {
      const { instance_id, attempt, lease_expires_at } = event.data;
      return { ...state, claim: { instanceId: instance_id, attempt, expiresAt: lease_expires_at } };
    }
    case 'WebhookDeliveryAttempted':
      return { ...state, attempts: event.data.attempt, nextAttemptAt: event.data.next_attempt_at, claim: null };
    case 'WebhookDeliverySucceeded':
      return { ...state, status: 'succeeded', nextAttemptAt: null };
    case 'WebhookDeliveryFailed':
      return { ...state, status: 'failed', nextAttemptAt: null, claim: null };
  }
}

export const webhookDeliveryDecider: Decider<DeliveryState, DeliveryCommand, WebhookDeliveryEvent> = {
  initialState: () => ({ scheduled: null, status: null, attempts: 0, nextAttemptAt: null, claim: null }),
  decide,
  evolve,
};
