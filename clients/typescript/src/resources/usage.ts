import type { QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';

/** Credits consumed: totals over a period, and the records they add up. */
export class Usage {
  constructor(private readonly requester: Requester) {}

  /** Totals by day, sector, table and key over `[from, to)`; the current billing period by default. */
  summary(params: QueryOf<'getUsage'> = {}, options?: RequestOptions) {
    const init = this.requester.init(options);
    return unwrap(this.requester.raw.GET('/v1/usage', { params: { query: params }, ...init }));
  }

  /** Every usage record of the period, page after page. */
  records(params: Omit<QueryOf<'listUsageRecords'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/usage/records', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }
}
