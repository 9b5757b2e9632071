import type { QueryOf } from '../operation-types.js';
import type { Requester, RequestOptions } from '../requester.js';

/** The credit history replayed from events. */
export class Audit {
  constructor(private readonly requester: Requester) {}

  /** The credit movements, page after page; every page carries the replay's `verdict`. */
  credits(params: Omit<QueryOf<'auditCredits'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/audit/credits', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }
}
