import { expect } from 'chai';
import {
  applyToScheduler,
  initialSchedulerState,
  plannedDeliveries,
  schedulerStateFromJSON,
  schedulerStateToJSON,
  type PlannedDelivery,
  type SchedulerState,
} from '../../../core/webhooks/scheduler-state.js';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import { EventLog } from './support/events.js';

const BASE = 'https://errors.finsynth.dev';

/** Runs the log through the scheduler's fold, as the scheduler does: plan on the state before, then apply. */
function replay(events: readonly RecordedEvent[], state: SchedulerState = initialSchedulerState()): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  for (const event of events) {
    planned.push(...plannedDeliveries(state, event, BASE));
    applyToScheduler(state, event);
  }
  return planned;
}

describe('whom the webhook scheduler sends an event', () => {
  it("sends a job's end to the endpoints of its account and mode that subscribed to it, with one event id", () => {
    const log = new EventLog();
    log.endpoint('we_a', 'acc_1', 'live', ['job.succeeded', 'job.failed']);
    log.endpoint('we_b', 'acc_1', 'live', ['job.succeeded']);
    log.endpoint('we_test', 'acc_1', 'test', ['job.succeeded', 'job.failed']);
    log.endpoint('we_other', 'acc_2', 'live', ['job.succeeded', 'job.failed']);
    log.endpoint('we_cancel', 'acc_1', 'live', ['job.cancelled']);
    log.job('job_1', 'acc_1', 'live');
    log.jobSucceeded('job_1');
    log.job('job_2', 'acc_1', 'live');
    log.jobFailed('job_2');
    const planned = replay(log.events);
    expect(planned.map((delivery) => [delivery.endpointId, delivery.eventType])).to.deep.equal([
      ['we_a', 'job.succeeded'],
      ['we_b', 'job.succeeded'],
      ['we_a', 'job.failed'],
    ]);
    expect(planned[0]!.eventId)
      .to.equal(planned[1]!.eventId)
      .and.to.match(/^evt_[0-9a-f]{32}$/);
    expect(planned[2]!.eventId).not.to.equal(planned[0]!.eventId);
    expect(planned[2]!.object).to.deep.include({
      id: 'job_2',
      object: 'job',
      state: 'failed',
      results: [],
      credits_charged: null,
      failure: {
        type: `${BASE}/generation-failed`,
        title: 'Internal Server Error',
        status: 500,
        detail: 'the pack threw',
        instance: '/v1/jobs/job_2',
      },
    });
    expect(planned[0]!).to.include({ accountId: 'acc_1', mode: 'live', created: 1772366400 });
  });

  it('sends nothing to an endpoint deleted before the event, nor created after it', () => {
    const log = new EventLog();
    log.endpoint('we_gone', 'acc_1', 'test', ['job.succeeded']);
    log.job('job_1', 'acc_1', 'test');
    log.deleteEndpoint('we_gone');
    log.jobSucceeded('job_1');
    log.job('job_2', 'acc_1', 'test');
    log.endpoint('we_late', 'acc_1', 'test', ['job.succeeded']);
    log.jobSucceeded('job_2');
    expect(replay(log.events).map((delivery) => [delivery.endpointId, delivery.object.id])).to.deep.equal([
      ['we_late', 'job_2'],
    ]);
  });

  it('sends credits.low on each fall below an endpoint’s own threshold, live money only', () => {
    const log = new EventLog();
    log.credits('acc_1', 'CreditsGranted', 1000);
    log.endpoint('we_100', 'acc_1', 'live', ['credits.low'], 100);
    log.endpoint('we_500', 'acc_1', 'live', ['credits.low'], 500);
    log.endpoint('we_test', 'acc_1', 'test', ['credits.low'], 500);
    log.credits('acc_1', 'CreditsDebited', 600); // 400: below 500
    log.credits('acc_1', 'CreditsDebited', 1000, 'test'); // moves nothing
    log.credits('acc_1', 'CreditsDebited', 350); // 50: below 100, still below 500
    log.credits('acc_1', 'CreditsGranted', 50); // 100: at 100, not below
    log.credits('acc_1', 'CreditsDebited', 1); // 99: below 100 again
    const planned = replay(log.events);
    expect(planned.map((delivery) => [delivery.endpointId, delivery.object.credits_available])).to.deep.equal([
      ['we_500', 400],
      ['we_100', 50],
      ['we_100', 99],
    ]);
    expect(new Set(planned.map((delivery) => delivery.eventId)).size).to.equal(3);
  });

  it('sends subscription.renewed to live endpoints of the renewed account', () => {
    const log = new EventLog();
    log.endpoint('we_live', 'acc_1', 'live', ['subscription.renewed']);
    log.endpoint('we_test', 'acc_1', 'test', ['subscription.renewed']);
    log.add(
      'account-acc_1',
      'SubscriptionRenewed',
      {
        period: 2,
        tier: 'pro',
        previous_tier: 'pro',
        period_start: '2026-03-01T00:00:00.000Z',
        period_end: '2026-04-01T00:00:00.000Z',
        credits: 100000,
        amount: 9900,
        currency: 'EUR',
        charged: true,
      },
      2,
    );
    const [renewed, ...rest] = replay(log.events);
    expect(rest).to.deep.equal([]);
    expect(renewed).to.include({ endpointId: 'we_live', eventType: 'subscription.renewed', mode: 'live' });
    expect(renewed!.object).to.include({ object: 'subscription', account_id: 'acc_1', tier: 'pro', period: 2 });
  });

  it('decides the same after its state went through JSON, so a restart resumes where it stopped', () => {
    const log = new EventLog();
    log.credits('acc_1', 'CreditsGranted', 1000);
    log.endpoint('we_1', 'acc_1', 'live', ['credits.low', 'job.succeeded'], 500);
    log.endpoint('we_2', 'acc_2', 'test', ['job.succeeded']);
    log.job('job_1', 'acc_1', 'live');
    const half = log.events.length;
    log.credits('acc_1', 'CreditsDebited', 600);
    log.jobSucceeded('job_1');
    const straight = replay(log.events);
    const state = initialSchedulerState();
    replay(log.events.slice(0, half), state);
    const restored = schedulerStateFromJSON(JSON.parse(JSON.stringify(schedulerStateToJSON(state))));
    expect(replay(log.events.slice(half), restored)).to.deep.equal(straight);
    expect(straight).to.have.length(2);
  });
});
