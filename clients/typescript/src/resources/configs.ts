import type { JsonBodyOf, QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';
import { configBody, type ConfigInput } from './config-input.js';

export type ConfigCheckBody = JsonBodyOf<'validateConfig'>;
export type SaveConfigBody = JsonBodyOf<'saveConfig'>;
/** A saved config's new name, config, or both: a rename alone keeps its config. */
export type UpdateConfigBody = JsonBodyOf<'updateConfig'>;
export type ComposeBody = JsonBodyOf<'composeConfig'>;

/** Generation configs: checked, estimated, saved, composed from overlays. */
export class Configs {
  constructor(private readonly requester: Requester) {}

  /** Checks a config (YAML text, `{ config }`, `{ config_yaml }` or `{ config_id, overlays }`). */
  validate(input: ConfigInput<ConfigCheckBody>, options?: RequestOptions) {
    const body = configBody(input);
    return unwrap(this.requester.raw.POST('/v1/configs/validate', { body, ...this.requester.init(options) }));
  }

  /** The credits a config would cost, table by table. */
  estimate(input: ConfigInput<ConfigCheckBody>, options?: RequestOptions) {
    const body = configBody(input);
    return unwrap(this.requester.raw.POST('/v1/configs/estimate', { body, ...this.requester.init(options) }));
  }

  /** Saves a config under a name: `{ name, config }` or `{ name, config_yaml }`. */
  create(body: SaveConfigBody, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/configs', { body, ...this.requester.init(options) }));
  }

  /** Renames a saved config, replaces its config, or both (its version goes up by one). */
  update(id: string, body: UpdateConfigBody, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.POST('/v1/configs/{id}', { params, body, ...this.requester.init(options) }));
  }

  list(params: Omit<QueryOf<'listConfigs'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/configs', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }

  retrieve(id: string, options?: RequestOptions) {
    return unwrap(
      this.requester.raw.GET('/v1/configs/{id}', { params: { path: { id } }, ...this.requester.init(options) }),
    );
  }

  delete(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.DELETE('/v1/configs/{id}', { params, ...this.requester.init(options) }));
  }

  /** A config composed from a base (a saved id, or inline) and overlays applied in order, with its check. */
  compose(body: ComposeBody, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/configs/compose', { body, ...this.requester.init(options) }));
  }

  /** Submits a config as YAML text, as the engine reads it; with `save` and `name`, saves it when valid. */
  raw(yaml: string, params: QueryOf<'submitRawConfig'> = {}, options?: RequestOptions) {
    const init = this.requester.init(options);
    return unwrap(
      this.requester.raw.POST('/v1/configs/raw', {
        params: { query: params },
        body: yaml,
        // The YAML is sent as it is, not as a JSON string.
        bodySerializer: (text: string) => text,
        ...init,
        headers: { ...init.headers, 'Content-Type': 'application/yaml' },
      }),
    );
  }

  /** The JSON Schema of a config. */
  schema(options?: RequestOptions) {
    return unwrap(this.requester.raw.GET('/v1/configs/schema', this.requester.init(options)));
  }
}
