import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { Mode } from '../../core/events/envelope.js';
import type { Scope } from '../../core/auth/scopes.js';
import type { Tier } from '../../core/accounts/profile.js';
import type { Services } from '../../core/services/services.js';

/** Who is asking: set by authentication on every request that carries a valid key. */
export interface Auth {
  accountId: string;
  keyId: string;
  mode: Mode;
  scopes: readonly Scope[];
  tier: Tier;
}

export interface ApiState {
  requestId: string;
  auth: Auth;
  /** The route template (`/v1/keys/{id}`), for metrics and logs; unset when no route matched. */
  route?: string;
}

export interface ApiContextExtensions {
  services: Services;
  /** The app's logger, for what a request must report without failing (the access log is separate). */
  logger: Logger;
  /** Set when the server begins its graceful shutdown: /readyz then fails, so load balancers move away. */
  lifecycle: { draining: boolean };
  /** The OpenAPI document, serialized once. */
  openapi: string;
}

export type ApiContext = ParameterizedContext<ApiState, ApiContextExtensions>;
