import type { Billing, Tier } from '../core/accounts/profile.js';
import { configFrom } from './options.js';

export interface CreateAccountOptions {
  tier: Tier;
  credits?: number;
  billing: Billing;
  data?: string;
  json?: boolean;
}

/**
 * `finsynth accounts create`: opens an account on the store the server uses (it may be running: the
 * server's projections pick the new keys up within a second). With --json, stdout holds exactly the
 * account id and the two keys, and nothing else. The account is invoiced (billed outside finsynth)
 * unless `--billing card` asks for its fees to be charged to a payment method.
 */
export async function createAccountCommand(options: CreateAccountOptions): Promise<number> {
  // Loaded once the arguments are known to be good, so that a usage error answers at once.
  const [{ createServices }, { createAccount }] = await Promise.all([
    import('../core/services/services.js'),
    import('../core/accounts/create-account.js'),
  ]);
  const services = await createServices(configFrom(options), { background: false });
  try {
    const created = await createAccount(services, {
      tier: options.tier,
      credits: options.credits,
      billing: options.billing,
    });
    const { account_id, keys } = created;
    if (options.json) {
      process.stdout.write(
        `{"account_id": ${JSON.stringify(account_id)}, "keys": {"live": ` +
          `${JSON.stringify(keys.live)}, "test": ${JSON.stringify(keys.test)}}}\n`,
      );
    } else {
      process.stdout.write(
        `account ${account_id} (${options.tier})\n  live key: ${keys.live}\n` +
          `  test key: ${keys.test}\nThe keys are shown this once; keep them.\n`,
      );
    }
    return 0;
  } finally {
    await services.close();
  }
}
