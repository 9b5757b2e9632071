import type { JsonBodyOf, QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';

export type SaveOverlayBody = JsonBodyOf<'saveOverlay'>;
/** An overlay's new name, content, or both: a rename alone keeps its content. */
export type UpdateOverlayBody = JsonBodyOf<'updateOverlay'>;

/** Overlays: partial configs that composition applies over a base. */
export class Overlays {
  constructor(private readonly requester: Requester) {}

  /** Saves an overlay under a name: `{ name, overlay }` or `{ name, overlay_yaml }`. */
  create(body: SaveOverlayBody, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/overlays', { body, ...this.requester.init(options) }));
  }

  /** Renames an overlay, replaces its content, or both (its version goes up by one). */
  update(id: string, body: UpdateOverlayBody, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.POST('/v1/overlays/{id}', { params, body, ...this.requester.init(options) }));
  }

  list(params: Omit<QueryOf<'listOverlays'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/overlays', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }

  retrieve(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.GET('/v1/overlays/{id}', { params, ...this.requester.init(options) }));
  }

  delete(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.DELETE('/v1/overlays/{id}', { params, ...this.requester.init(options) }));
  }
}
