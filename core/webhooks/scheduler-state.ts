import type { Mode, RecordedEvent } from '../events/envelope.js';
import { isEventOf } from '../events/event-of.js';
import type { JobEvent } from '../jobs/events.js';
import type { SubscriptionRenewed } from '../accounts/subscription.js';
import { accountIdOfStream } from '../accounts/stream-name.js';
import { balanceChange, CREDIT_MOVEMENT_TYPES } from '../accounts/credit-movement.js';
import type { WebhookEndpointEvent } from './events.js';
import type { WebhookEventType } from './event-types.js';
import { webhookEventId } from './ids.js';
import { jobObject, type PendingJob } from './job-object.js';

/** An endpoint that is not deleted, as far as the scheduler has read. */
export interface ActiveEndpoint {
  endpoint_id: string;
  account_id: string;
  mode: Mode;
  events: WebhookEventType[];
  credits_low_threshold: number | null;
}

/**
 * What the scheduler folds from the events, in global order: the endpoints, every account's available
 * live credits, and the jobs that have not ended. Whom an event is sent to is decided on this state as it
 * stood at that event, so every instance, and every replay, decides the same deliveries.
 */
export interface SchedulerState {
  /** Per owner (`<account>/<mode>`), the endpoints by id, oldest first. */
  endpoints: Map<string, Map<string, ActiveEndpoint>>;
  balances: Map<string, number>;
  jobs: Map<string, PendingJob>;
}

/** A delivery to schedule: one event for one endpoint. */
export interface PlannedDelivery {
  endpointId: string;
  accountId: string;
  mode: Mode;
  eventId: string;
  eventType: WebhookEventType;
  /** Unix seconds. */
  created: number;
  object: Record<string, unknown>;
}

type JobEnd = Extract<JobEvent, { type: 'JobSucceeded' | 'JobFailed' | 'JobCancelled' }>;
type Handled = JobEvent | SubscriptionRenewed | WebhookEndpointEvent;

const JOB_TYPES: readonly JobEvent['type'][] = [
  'JobCreated',
  'JobStarted',
  'JobSucceeded',
  'JobFailed',
  'JobCancelled',
];
const ENDPOINT_TYPES: readonly WebhookEndpointEvent['type'][] = ['WebhookEndpointCreated', 'WebhookEndpointDeleted'];
const JOB_END_TYPES: Record<JobEnd['type'], WebhookEventType> = {
  JobSucceeded: 'job.succeeded',
  JobFailed: 'job.failed',
  JobCancelled: 'job.cancelled',
};

/** The event types the scheduler reads; it skips every other without upcasting it. */
export const SCHEDULER_HANDLES: ReadonlySet<string> = new Set([
  ...JOB_TYPES,
  ...ENDPOINT_TYPES,
  ...CREDIT_MOVEMENT_TYPES,
  'SubscriptionRenewed',
]);

const ownerKey = (accountId: string, mode: Mode): string => `${accountId}/${mode}`;
const unixSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

export const initialSchedulerState = (): SchedulerState => ({
  endpoints: new Map(),
  balances: new Map(),
  jobs: new Map(),
});

/** The endpoints of an owner subscribed to a type. */
function subscribed(state: SchedulerState, accountId: string, mode: Mode, type: WebhookEventType): ActiveEndpoint[] {
  const owned = state.endpoints.get(ownerKey(accountId, mode));
  return owned ? [...owned.values()].filter((endpoint) => endpoint.events.includes(type)) : [];
}

/**
 * The deliveries an event causes, decided on the state before it (pure: the state is not changed). Jobs
 * are sent to endpoints of their own account and mode; a subscription renewal and a fall of the credit
 * balance concern live money, and are sent to live endpoints only.
 */
export function plannedDeliveries(
  state: SchedulerState,
  event: RecordedEvent,
  errorTypeBase: string,
): PlannedDelivery[] {
  const created = unixSeconds(event.recorded_at);
  const toEach = (endpoints: ActiveEndpoint[], eventType: WebhookEventType, object: Record<string, unknown>) =>
    endpoints.map((endpoint) => ({
      endpointId: endpoint.endpoint_id,
      accountId: endpoint.account_id,
      mode: endpoint.mode,
      eventId: webhookEventId(event.id),
      eventType,
      created,
      object,
    }));

  if (isEventOf<JobEnd>(event, ['JobSucceeded', 'JobFailed', 'JobCancelled'])) {
    const job = state.jobs.get(event.data.job_id);
    if (!job) return [];
    const type = JOB_END_TYPES[event.type];
    const endpoints = subscribed(state, job.account_id, job.mode, type);
    if (endpoints.length === 0) return [];
    return toEach(endpoints, type, jobObject(event.data.job_id, job, event, errorTypeBase));
  }
  if (isEventOf<SubscriptionRenewed>(event, ['SubscriptionRenewed'])) {
    const accountId = accountIdOfStream(event.stream);
    if (accountId === null) return [];
    const { period, tier, previous_tier, period_start, period_end, credits, amount, currency, charged } = event.data;
    const object = {
      object: 'subscription',
      account_id: accountId,
      period,
      tier,
      previous_tier,
      period_start,
      period_end,
      included_credits: credits,
      amount,
      currency,
      charged,
    };
    return toEach(subscribed(state, accountId, 'live', 'subscription.renewed'), 'subscription.renewed', object);
  }
  const change = balanceChange(event);
  const accountId = accountIdOfStream(event.stream);
  if (change === null || change.available >= 0 || accountId === null) return [];
  const before = state.balances.get(accountId) ?? 0;
  const after = before + change.available;
  // Once per crossing: from at or above the threshold to below it; again only after it rose back.
  return subscribed(state, accountId, 'live', 'credits.low')
    .filter(({ credits_low_threshold: threshold }) => threshold !== null && before >= threshold && after < threshold)
    .map((endpoint) => ({
      endpointId: endpoint.endpoint_id,
      accountId,
      mode: 'live' as const,
      // Each endpoint has its own threshold, so each crossing is an event of its own.
      eventId: webhookEventId(`${event.id}/${endpoint.endpoint_id}`),
      eventType: 'credits.low' as const,
      created,
      object: {
        object: 'credit_balance',
        account_id: accountId,
        credits_available: after,
        credits_low_threshold: endpoint.credits_low_threshold,
      },
    }));
}

/** Folds one event into the scheduler's state, in place (the scheduler owns it alone). */
export function applyToScheduler(state: SchedulerState, event: RecordedEvent): void {
  const change = balanceChange(event);
  if (change !== null) {
    const accountId = accountIdOfStream(event.stream);
    if (accountId !== null) state.balances.set(accountId, (state.balances.get(accountId) ?? 0) + change.available);
    return;
  }
  if (!isEventOf<Handled>(event, [...JOB_TYPES, ...ENDPOINT_TYPES])) return;
  switch (event.type) {
    case 'JobCreated': {
      const { job_id, account_id, mode, plan, output, estimate, created_at } = event.data;
      const tables = estimate.tables.map(({ name, rows }) => ({ name, rows }));
      state.jobs.set(job_id, { account_id, mode, sector: plan.sector, output, tables, created_at, started_at: null });
      break;
    }
    case 'JobStarted': {
      const job = state.jobs.get(event.data.job_id);
      if (job && job.started_at === null) job.started_at = event.data.started_at;
      break;
    }
    case 'JobSucceeded':
    case 'JobFailed':
    case 'JobCancelled':
      state.jobs.delete(event.data.job_id);
      break;
    case 'WebhookEndpointCreated': {
      const { endpoint_id, account_id, mode, events, credits_low_threshold } = event.data;
      const key = ownerKey(account_id, mode);
      const owned = state.endpoints.get(key) ?? new Map<string, ActiveEndpoint>();
      owned.set(endpoint_id, { endpoint_id, account_id, mode, events, credits_low_threshold });
      state.endpoints.set(key, owned);
      break;
    }
    case 'WebhookEndpointDeleted':
      for (const [key, owned] of state.endpoints) {
        if (!owned.delete(event.data.endpoint_id)) continue;
        if (owned.size === 0) state.endpoints.delete(key);
        break;
      }
      break;
  }
}

interface SchedulerJson {
  endpoints: ActiveEndpoint[];
  balances: [string, number][];
  jobs: [string, PendingJob][];
}

/** Endpoints stay in the order they were created; the rest is sorted, so equal states give equal JSON. */
export function schedulerStateToJSON(state: SchedulerState): SchedulerJson {
  const byKey = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    endpoints: [...state.endpoints.values()].flatMap((owned) => [...owned.values()]),
    balances: byKey(state.balances),
    jobs: byKey(state.jobs),
  };
}

/** The saved state as schedulerStateToJSON wrote it (the checkpoint store gives back what it was given). */
export function schedulerStateFromJSON(saved: unknown): SchedulerState {
  const json = saved as SchedulerJson;
  const state = initialSchedulerState();
  for (const endpoint of json.endpoints) {
    const key = ownerKey(endpoint.account_id, endpoint.mode);
    const owned = state.endpoints.get(key) ?? new Map<string, ActiveEndpoint>();
    owned.set(endpoint.endpoint_id, endpoint);
    state.endpoints.set(key, owned);
  }
  for (const [accountId, balance] of json.balances) state.balances.set(accountId, balance);
  for (const [jobId, job] of json.jobs) state.jobs.set(jobId, job);
  return state;
}
