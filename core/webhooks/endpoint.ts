import type { Decider } from '../commands/decider.js';
import type { Mode } from '../events/envelope.js';
import { problem } from '../problems.js';
import type { WebhookEndpointCreated, WebhookEndpointEvent } from './events.js';
import { WebhookProblems } from './problems.js';

export type CreateEndpoint = { type: 'CreateEndpoint' } & Omit<WebhookEndpointCreated['data'], 'created_at'> & {
    at: string;
  };
/** Names its owner: an endpoint of another account or mode is not found, as on every read. */
export type DeleteEndpoint = { type: 'DeleteEndpoint'; endpointId: string; accountId: string; mode: Mode; at: string };
export type EndpointCommand = CreateEndpoint | DeleteEndpoint;

export interface EndpointState {
  created: WebhookEndpointCreated['data'] | null;
  deletedAt: string | null;
}

export const webhookEndpointStream = (endpointId: string): string => `webhook-${endpointId}`;

function decide(command: EndpointCommand, state: EndpointState): WebhookEndpointEvent[] {
  switch (command.type) {
    case 'CreateEndpoint': {
      if (state.created) throw problem(WebhookProblems.alreadyExists, `endpoint ${command.endpoint_id} exists`);
      const { type: _type, at, ...data } = command;
      return [{ type: 'WebhookEndpointCreated', data: { ...data, created_at: at } }];
    }
    case 'DeleteEndpoint': {
      const { created } = state;
      if (!created || state.deletedAt || created.account_id !== command.accountId || created.mode !== command.mode)
        throw problem(WebhookProblems.notFound, `no webhook endpoint ${command.endpointId}`);
      return [{ type: 'WebhookEndpointDeleted', data: { endpoint_id: command.endpointId, deleted_at: command.at } }];
    }
  }
}

function evolve(state: EndpointState, event: WebhookEndpointEvent): EndpointState {
  switch (event.type) {
    case 'WebhookEndpointCreated':
      return { ...state, created: event.data };
    case 'WebhookEndpointDeleted':
      return { ...state, deletedAt: event.data.deleted_at };
  }
}

export const webhookEndpointDecider: Decider<EndpointState, EndpointCommand, WebhookEndpointEvent> = {
  initialState: () => ({ created: null, deletedAt: null }),
  decide,
  evolve,
};
