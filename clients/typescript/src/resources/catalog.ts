import { unwrap, type Requester, type RequestOptions } from '../requester.js';

/** The sector packs, their tables and the data types. */
export class Catalog {
  constructor(private readonly requester: Requester) {}

  list(options?: RequestOptions) {
    return unwrap(this.requester.raw.GET('/v1/catalog', this.requester.init(options)));
  }

  sector(sector: string, options?: RequestOptions) {
    const params = { path: { sector } };
    return unwrap(this.requester.raw.GET('/v1/catalog/sectors/{sector}', { params, ...this.requester.init(options) }));
  }

  table(sector: string, table: string, options?: RequestOptions) {
    const params = { path: { sector, table } };
    const init = this.requester.init(options);
    return unwrap(this.requester.raw.GET('/v1/catalog/sectors/{sector}/tables/{table}', { params, ...init }));
  }

  types(options?: RequestOptions) {
    return unwrap(this.requester.raw.GET('/v1/catalog/types', this.requester.init(options)));
  }
}
