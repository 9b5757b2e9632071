import { expect } from 'chai';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import {
  dueDeliveries,
  endpointDeliveries,
  KEPT_FINISHED,
  webhookDeliveriesProjection,
} from '../../../projections/webhooks/deliveries.js';
import { ownerEndpoint, ownerEndpoints, webhookEndpointsProjection } from '../../../projections/webhooks/endpoints.js';
import { EventLog } from '../../core/webhooks/support/events.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

function scheduled(log: EventLog, id: string, seconds: number): RecordedEvent {
  return log.add(`webhook-delivery-${id}`, 'WebhookDeliveryScheduled', {
    delivery_id: id,
    endpoint_id: 'we_1',
    account_id: 'acc_1',
    mode: 'live',
    event_id: `evt_${id}`,
    event_type: 'job.succeeded',
    created: 0,
    object: {},
    source_event_id: `source-${id}`,
    scheduled_at: at(seconds),
  });
}

describe('the webhook read models', () => {
  it('lists an owner’s endpoints newest first, and hides deleted ones and those of others', () => {
    const log = new EventLog();
    log.endpoint('we_a', 'acc_1', 'live', ['job.failed']);
    log.endpoint('we_b', 'acc_1', 'live', ['job.failed']);
    log.endpoint('we_c', 'acc_1', 'test', ['job.failed']);
    log.deleteEndpoint('we_a');
    const state = log.events.reduce(webhookEndpointsProjection.apply, webhookEndpointsProjection.initialState());
    expect(ownerEndpoints(state, 'acc_1', 'live').map((endpoint) => endpoint.id)).to.deep.equal(['we_b', 'we_a']);
    expect(ownerEndpoint(state, 'acc_1', 'live', 'we_a')).to.equal(undefined);
    expect(ownerEndpoint(state, 'acc_1', 'live', 'we_c')).to.equal(undefined);
    expect(ownerEndpoint(state, 'acc_2', 'live', 'we_b')).to.equal(undefined);
    expect(ownerEndpoint(state, 'acc_1', 'live', 'we_b')?.url).to.equal('https://we_b.example/hooks');
    const restored = webhookEndpointsProjection.fromJSON(
      JSON.parse(JSON.stringify(webhookEndpointsProjection.toJSON(state))),
    );
    expect(restored).to.deep.equal(state);
  });

  it('finds the deliveries due and not held, longest waiting first, and lists them newest first', () => {
    const log = new EventLog();
    scheduled(log, 'wd_1', 0);
    scheduled(log, 'wd_2', 1);
    scheduled(log, 'wd_3', 2);
    scheduled(log, 'wd_4', 3);
    log.add('webhook-delivery-wd_1', 'WebhookDeliveryClaimed', {
      delivery_id: 'wd_1',
      attempt: 1,
      instance_id: 'i1',
      claimed_at: at(4),
      lease_expires_at: at(44),
    });
    log.add('webhook-delivery-wd_2', 'WebhookDeliveryAttempted', {
      delivery_id: 'wd_2',
      attempt: 1,
      at: at(4),
      status_code: 500,
      error: null,
      duration_ms: 3,
      next_attempt_at: at(34),
    });
    log.add('webhook-delivery-wd_3', 'WebhookDeliverySucceeded', {
      delivery_id: 'wd_3',
      attempts: 1,
      succeeded_at: at(4),
    });
    const state = log.events.reduce(webhookDeliveriesProjection.apply, webhookDeliveriesProjection.initialState());
    const due = (seconds: number) => dueDeliveries(state, new Date(T0 + seconds * 1000), 10).map((d) => d.id);
    expect(due(5)).to.deep.equal(['wd_4']);
    expect(due(34)).to.deep.equal(['wd_4', 'wd_2']);
    expect(due(44)).to.deep.equal(['wd_1', 'wd_4', 'wd_2']);
    expect(dueDeliveries(state, new Date(T0 + 44_000), 1).map((d) => d.id)).to.deep.equal(['wd_1']);
    expect(endpointDeliveries(state, 'we_1').map((delivery) => delivery.id)).to.deep.equal([
      'wd_4',
      'wd_3',
      'wd_2',
      'wd_1',
    ]);
    expect(state.byId.get('wd_2')).to.include({ attempts: 1, last_status_code: 500, status: 'pending' });
    const restored = webhookDeliveriesProjection.fromJSON(
      JSON.parse(JSON.stringify(webhookDeliveriesProjection.toJSON(state))),
    );
    expect(restored).to.deep.equal(state);
  });

  it('keeps an endpoint’s newest finished deliveries and every pending one, and none of a deleted endpoint', () => {
    // given more finished deliveries than an endpoint keeps, and one still pending among the oldest
    const log = new EventLog();
    const total = KEPT_FINISHED + 5;
    for (let i = 0; i < total; i++) scheduled(log, `wd_${i}`, i);
    for (let i = 0; i < total; i++) {
      if (i === 2) continue;
      log.add(`webhook-delivery-wd_${i}`, 'WebhookDeliverySucceeded', {
        delivery_id: `wd_${i}`,
        attempts: 1,
        succeeded_at: at(total + i),
      });
    }
    // when they are applied
    const state = log.events.reduce(webhookDeliveriesProjection.apply, webhookDeliveriesProjection.initialState());
    // then the oldest finished ones are dropped, the pending one kept, and a snapshot restores the same state
    const listed = endpointDeliveries(state, 'we_1').map((delivery) => delivery.id);
    expect(listed).to.have.length(KEPT_FINISHED + 1);
    expect(listed.at(0)).to.equal(`wd_${total - 1}`);
    expect(listed).to.include('wd_2');
    // 1,004 finished, 1,000 kept: the four oldest finished go, wd_2 (pending) stays among them.
    for (const dropped of ['wd_0', 'wd_1', 'wd_3', 'wd_4']) expect(listed).to.not.include(dropped);
    expect(listed).to.include('wd_5');
    expect(state.byId.size).to.equal(KEPT_FINISHED + 1);
    const restored = webhookDeliveriesProjection.fromJSON(
      JSON.parse(JSON.stringify(webhookDeliveriesProjection.toJSON(state))),
    );
    expect(restored).to.deep.equal(state);

    // when the endpoint is deleted, then its finished deliveries go at once, its pending one once it is given up
    const deleted = webhookDeliveriesProjection.apply(state, log.deleteEndpoint('we_1'));
    expect(endpointDeliveries(deleted, 'we_1').map((delivery) => delivery.id)).to.deep.equal(['wd_2']);
    const givenUp = webhookDeliveriesProjection.apply(
      deleted,
      log.add('webhook-delivery-wd_2', 'WebhookDeliveryFailed', {
        delivery_id: 'wd_2',
        attempts: 0,
        failed_at: at(3 * total),
        reason: 'the endpoint was deleted',
      }),
    );
    expect(givenUp.byId.size).to.equal(0);
    expect(givenUp.byEndpoint.size).to.equal(0);
    expect(givenUp.deleted.size).to.equal(0);
  });
});
