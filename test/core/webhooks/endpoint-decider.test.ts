import { webhookEndpointDecider, type CreateEndpoint } from '../../../core/webhooks/endpoint.js';
import type { WebhookEndpointEvent } from '../../../core/webhooks/events.js';
import { WebhookProblems } from '../../../core/webhooks/problems.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const given = deciderSpec(webhookEndpointDecider);
const T0 = '2026-01-01T00:00:00.000Z';

const create: CreateEndpoint = {
  type: 'CreateEndpoint',
  endpoint_id: 'we_1',
  account_id: 'acc_1',
  mode: 'live',
  url: 'https://hooks.example.com/finsynth',
  events: ['job.succeeded', 'credits.low'],
  credits_low_threshold: 100,
  description: null,
  at: T0,
};
const { type: _type, at: _at, ...data } = create;
const created: WebhookEndpointEvent = { type: 'WebhookEndpointCreated', data: { ...data, created_at: T0 } };
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpoint_id: 'we_1', deleted_at: T0 } };
const remove = { type: 'DeleteEndpoint', endpointId: 'we_1', accountId: 'acc_1', mode: 'live', at: T0 } as const;

describe('webhook endpoint decider', () => {
  it('creates an endpoint once, with no secret in its event', () => {
    given([]).when(create).then([created]);
    given([created]).when(create).thenThrows(WebhookProblems.alreadyExists);
  });

  it("deletes its owner's endpoint once; another account, the other mode or none at all is not found", () => {
    given([created]).when(remove).then([deleted]);
    given([created, deleted]).when(remove).thenThrows(WebhookProblems.notFound);
    given([]).when(remove).thenThrows(WebhookProblems.notFound);
    given([created])
      .when({ ...remove, accountId: 'acc_2' })
      .thenThrows(WebhookProblems.notFound);
    given([created])
      .when({ ...remove, mode: 'test' })
      .thenThrows(WebhookProblems.notFound);
  });
});
