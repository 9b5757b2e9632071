import type { Mode, RecordedEvent } from '../../../../core/events/envelope.js';
import type { WebhookEventType } from '../../../../core/webhooks/event-types.js';

const RECORDED_AT = '2026-03-01T12:00:00.000Z';

/** Events as the store hands them over, numbered in the order given: what the scheduler and projections read. */
export class EventLog {
  readonly events: RecordedEvent[] = [];

  add(stream: string, type: string, data: unknown, version = 1): RecordedEvent {
    const position = this.events.length + 1;
    const event: RecordedEvent = {
      id: `event-${position}`,
      stream,
      revision: 0,
      position,
      type,
      version,
      data,
      metadata: {},
      recorded_at: RECORDED_AT,
      hash: '',
    };
    this.events.push(event);
    return event;
  }

  endpoint(
    id: string,
    account: string,
    mode: Mode,
    events: WebhookEventType[],
    threshold: number | null = null,
  ): RecordedEvent {
    return this.add(`webhook-${id}`, 'WebhookEndpointCreated', {
      endpoint_id: id,
      account_id: account,
      mode,
      url: `https://${id}.example/hooks`,
      events,
      credits_low_threshold: threshold,
      description: null,
      created_at: RECORDED_AT,
    });
  }

  deleteEndpoint(id: string): RecordedEvent {
    return this.add(`webhook-${id}`, 'WebhookEndpointDeleted', { endpoint_id: id, deleted_at: RECORDED_AT });
  }

  job(id: string, account: string, mode: Mode): RecordedEvent {
    return this.add(`job-${id}`, 'JobCreated', {
      job_id: id,
      account_id: account,
      mode,
      key_id: 'key_1',
      config: { version: 1, sector: 'cards', tables: [{ name: 'cardholders', rows: 10 }] },
      plan: { sector: 'cards', pack_version: '1.0.0', seed: 1, locale: 'en_GB', tables: [] },
      output: { format: 'csv', compression: 'none' },
      estimate: { credits: 3, tables: [{ name: 'cardholders', rows: 10, credits: 3 }] },
      created_at: RECORDED_AT,
    });
  }

  jobSucceeded(id: string): RecordedEvent {
    return this.add(`job-${id}`, 'JobSucceeded', {
      job_id: id,
      instance_id: 'i1',
      files: [
        {
          table: 'cardholders',
          file: 'cardholders.csv',
          format: 'csv',
          compression: 'none',
          rows: 10,
          bytes: 100,
          sha256: 'a'.repeat(64),
        },
      ],
      credits: 3,
      finished_at: RECORDED_AT,
    });
  }

  jobFailed(id: string): RecordedEvent {
    return this.add(`job-${id}`, 'JobFailed', {
      job_id: id,
      problem: { slug: 'generation-failed', title: 'Internal Server Error', status: 500, detail: 'the pack threw' },
      failed_at: RECORDED_AT,
    });
  }

  credits(account: string, type: 'CreditsGranted' | 'CreditsDebited', credits: number, mode: Mode = 'live') {
    const reference = `ref-${this.events.length + 1}`;
    const data =
      type === 'CreditsGranted'
        ? { reference, credits, reason: 'test' }
        : { reference, mode, key_id: null, operation: 'quick', sector: 'cards', tables: [], credits };
    return this.add(`account-${account}`, type, data);
  }
}
