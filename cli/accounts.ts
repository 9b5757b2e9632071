import { BILLINGS, TIERS, type Billing, type Tier } from '../core/accounts/profile.js';
import { UsageError, configFrom, parseOptions } from './options.js';

const USAGE =
  `usage: finsynth accounts create --tier <${TIERS.join('|')}> ` +
  `[--credits N] [--billing <${BILLINGS.join('|')}>] [--data DIR] [--json]`;

/**
 * `finsynth accounts create`: opens an account on the store the server uses (it may be running: the
 * server's projections pick the new keys up within a second). With --json, stdout holds exactly the
 * account id and the two keys, and nothing else. The account is invoiced (billed outside finsynth)
 * unless `--billing card` asks for its fees to be charged to a payment method.
 */
export async function accounts(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    tier: { type: 'string' },
    credits: { type: 'string' },
    billing: { type: 'string', default: 'invoice' },
    data: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1 || positionals[0] !== 'create') throw new UsageError(USAGE);
  if (!values.tier || !TIERS.includes(values.tier as Tier))
    throw new UsageError(`--tier must be one of ${TIERS.join(', ')}\n${USAGE}`);
  if (!BILLINGS.includes(values.billing as Billing))
    throw new UsageError(`--billing must be one of ${BILLINGS.join(', ')}\n${USAGE}`);
  const credits = values.credits === undefined ? undefined : Number(values.credits);
  if (credits !== undefined && (!/^\d+$/.test(values.credits!) || !Number.isSafeInteger(credits))) {
    throw new UsageError(`--credits must be a whole number of credits, not "${values.credits}"`);
  }

  // Loaded once the arguments are known to be good, so that a usage error answers at once.
  const [{ createServices }, { createAccount }] = await Promise.all([
    import('../core/services/services.js'),
    import('../core/accounts/create-account.js'),
  ]);
  const services = await createServices(configFrom(values), { background: false });
  try {
    const created = await createAccount(services, {
      tier: values.tier as Tier,
      credits,
      billing: values.billing as Billing,
    });
    const { account_id, keys } = created;
    if (values.json) {
      process.stdout.write(
        `{"account_id": ${JSON.stringify(account_id)}, "keys": {"live": ` +
          `${JSON.stringify(keys.live)}, "test": ${JSON.stringify(keys.test)}}}\n`,
      );
    } else {
      process.stdout.write(
        `account ${account_id} (${values.tier})\n  live key: ${keys.live}\n` +
          `  test key: ${keys.test}\nThe keys are shown this once; keep them.\n`,
      );
    }
    return 0;
  } finally {
    await services.close();
  }
}
