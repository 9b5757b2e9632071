import type { JsonBodyOf, QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';

export type KeyInput = NonNullable<JsonBodyOf<'issueKey'>>;

/** API keys of the account, in the mode of the key asking. */
export class Keys {
  constructor(private readonly requester: Requester) {}

  /** Issues a key with at most the asking key's scopes; its `secret` is in this answer only. */
  create(body: KeyInput = {}, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/keys', { body, ...this.requester.init(options) }));
  }

  list(params: Omit<QueryOf<'listKeys'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/keys', { params: { query: { ...params, cursor } }, ...this.requester.init(options) }),
    );
  }

  /** Revokes a key (revoking it again changes nothing). */
  revoke(id: string, options?: RequestOptions) {
    return unwrap(
      this.requester.raw.DELETE('/v1/keys/{id}', { params: { path: { id } }, ...this.requester.init(options) }),
    );
  }
}
