import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

/** Every operation of the service, as the generated document types them. */
export type Paths = paths;

/** The media types whose schemas type an answer's `data`: JSON, as the client parses answers. */
export type JsonMediaType = 'application/json' | 'application/schema+json';

/** The openapi-fetch client of these paths. */
export type RawClient = Client<Paths, JsonMediaType>;
