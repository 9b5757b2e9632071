import type { AnswerOf, JsonBodyOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';

export type QuickRequest = JsonBodyOf<'generateQuick'>;
export type QuickResult = AnswerOf<'generateQuick'>;

const MEDIA_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;

/** Synchronous generation: the rows come back in the answer. */
export class Generate {
  constructor(private readonly requester: Requester) {}

  /** Rows of one or more tables as JSON; with `format` `csv` (one table) or `ndjson`, the text of the answer. */
  quick(body: QuickRequest, options?: RequestOptions & { format?: 'json' }): Promise<QuickResult>;
  quick(body: QuickRequest, options: RequestOptions & { format: 'csv' | 'ndjson' }): Promise<string>;
  async quick(
    body: QuickRequest,
    options: RequestOptions & { format?: 'json' | 'csv' | 'ndjson' } = {},
  ): Promise<QuickResult | string> {
    const { format = 'json', ...rest } = options;
    const init = this.requester.init(rest);
    if (format === 'json') return unwrap(this.requester.raw.POST('/v1/generate/quick', { body, ...init }));
    const headers = { ...init.headers, Accept: MEDIA_TYPES[format] };
    return unwrap(this.requester.raw.POST('/v1/generate/quick', { body, ...init, headers, parseAs: 'text' }));
  }
}
