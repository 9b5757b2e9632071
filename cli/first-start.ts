import { createAccount } from '../core/accounts/create-account.js';
import { AccountAlreadyOpen } from '../core/accounts/profile.js';
import { ProblemError } from '../core/problems.js';
import type { Services } from '../core/services/services.js';

/**
 * The tier of the account opened on first start: the operator's own, so its limits stay out of the way.
 * It is invoiced (billed outside finsynth), so no fee is charged and it never lapses to free.
 */
const LOCAL_ACCOUNT_TIER = 'scale';

/**
 * The first-start account has a fixed id, so that instances starting together on one empty store
 * open it once: the account stream is the lock, and every instance but one finds it already open.
 */
export const LOCAL_ACCOUNT_ID = 'acc_local';

/**
 * An empty store means a fresh install: give its operator an account and keys to start with, once. A start
 * that created the audit log's signing key also says so, with the verifier key auditors need.
 * Returns what to print (the keys are shown this once), or null when there is nothing to say.
 */
export async function openLocalAccountOnFirstStart(services: Services): Promise<string | null> {
  const auditKey = services.auditLog.takeKeyCreated() ? auditKeyCreated(services) : '';
  const account = await openLocalAccount(services);
  return account === null && auditKey === '' ? null : `${account ?? ''}${auditKey}`;
}

/** What the operator is told of a new audit signing key: where it is, and the verifier key to give auditors. */
function auditKeyCreated(services: Services): string {
  return (
    `Created the audit log's signing key ${services.config.auditKeyFile} (keep it, and back it up apart from ` +
    'the store).\n' +
    `  audit log verifier key: ${services.auditLog.verifierKey}\n` +
    'Auditors check checkpoints and bundles with it (GET /v1/audit/public-key serves it too): docs/audit.md.\n'
  );
}

async function openLocalAccount(services: Services): Promise<string | null> {
  if ((await services.store.headPosition()) !== 0) return null;
  try {
    const { account_id, keys, position } = await createAccount(services, {
      tier: LOCAL_ACCOUNT_TIER,
      accountId: LOCAL_ACCOUNT_ID,
      billing: 'invoice',
    });
    await services.projections.waitFor(position);
    return (
      `First start with an empty store: opened the local account ${account_id} (${LOCAL_ACCOUNT_TIER} tier).\n` +
      `  live key: ${keys.live}\n  test key: ${keys.test}\n` +
      'These keys are shown this once; keep them. `npx finsynth accounts create` opens more accounts.\n'
    );
  } catch (error) {
    if (error instanceof ProblemError && error.type === AccountAlreadyOpen)
      return 'First start: another instance opened the local account; its output shows the keys.\n';
    throw error;
  }
}
