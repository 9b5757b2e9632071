import { newKeyId, newKeySecret } from '../auth/api-keys.js';
import type { Scope } from '../auth/scopes.js';
import type { EventMetadata, Mode } from '../events/envelope.js';
import { accountDecider, accountStream } from './account.js';
import type { AccountServices } from './account-services.js';

export interface IssueKeyInput {
  accountId: string;
  mode: Mode;
  scopes: Scope[];
  name: string | null;
  /** Scopes of the key asking; null when the operator issues. */
  issuerScopes: readonly Scope[] | null;
  metadata?: EventMetadata;
}

export interface IssuedKey {
  keyId: string;
  /** The whole key: returned to the caller once, never stored. */
  secret: string;
  position: number;
}

/** Draws the secret, then lets the account decider record its hash. */
export async function issueKey(services: AccountServices, input: IssueKeyInput): Promise<IssuedKey> {
  const drawn = newKeySecret(services.config.keyPrefix, input.mode);
  const keyId = newKeyId();
  const result = await services.commands.handle(
    accountDecider,
    accountStream(input.accountId),
    {
      type: 'IssueKey',
      keyId,
      mode: input.mode,
      scopes: input.scopes,
      name: input.name,
      prefix: drawn.prefix,
      secretSha256: drawn.sha256,
      issuerScopes: input.issuerScopes,
      at: services.clock.now().toISOString(),
    },
    { metadata: input.metadata },
  );
  return { keyId, secret: drawn.secret, position: result.position };
}

export async function revokeKey(
  services: AccountServices,
  accountId: string,
  mode: Mode,
  keyId: string,
  metadata?: EventMetadata,
): Promise<{ position: number }> {
  const result = await services.commands.handle(
    accountDecider,
    accountStream(accountId),
    { type: 'RevokeKey', keyId, mode, at: services.clock.now().toISOString() },
    { metadata },
  );
  return { position: result.position };
}
