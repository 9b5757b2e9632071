import { newAccountId } from '../auth/api-keys.js';
import { SCOPES } from '../auth/scopes.js';
import { accountDecider, accountStream } from './account.js';
import type { Billing, Tier } from './profile.js';
import type { AccountServices } from './account-services.js';
import { issueKey } from './keys-service.js';

export interface CreatedAccount {
  account_id: string;
  keys: { live: string; test: string };
  /** Global position of the last event written: wait for it before authenticating with the keys. */
  position: number;
}

/**
 * The operator's way in (`finsynth accounts create`, the first `npm start`, test set-up): opens an
 * account, grants its starting credits (exactly `credits`, or the tier's monthly allowance), and
 * issues one live and one test key holding every scope. `billing` absent is `card`: the operator's
 * own accounts pass `invoice` (billed outside finsynth).
 */
export async function createAccount(
  services: AccountServices,
  options: { tier: Tier; credits?: number; accountId?: string; billing?: Billing },
): Promise<CreatedAccount> {
  const accountId = options.accountId ?? newAccountId();
  const metadata = { correlation_id: accountId };
  await services.commands.handle(
    accountDecider,
    accountStream(accountId),
    {
      type: 'OpenAccount',
      accountId,
      tier: options.tier,
      at: services.clock.now().toISOString(),
      billing: options.billing,
    },
    { metadata },
  );
  await services.credits.grant({
    accountId,
    amount: options.credits ?? services.pricing.tiers[options.tier].included_credits,
    reference: `opening-${accountId}`,
    reason: options.credits === undefined ? `${options.tier} tier allowance` : 'granted at account creation',
  });
  const key = (mode: 'live' | 'test') =>
    issueKey(services, { accountId, mode, scopes: [...SCOPES], name: `${mode} key`, issuerScopes: null, metadata });
  const live = await key('live');
  const test = await key('test');
  return { account_id: accountId, keys: { live: live.secret, test: test.secret }, position: test.position };
}
