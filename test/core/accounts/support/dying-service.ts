import { fileURLToPath } from 'node:url';
import { createApp } from '../../../../api/app.js';
import { listen } from '../../../../api/server.js';
import { createAccount } from '../../../../core/accounts/create-account.js';
import { loadConfig } from '../../../../core/settings/settings.js';
import { createServices } from '../../../../core/services/services.js';
import { DIED } from './dying-child.js';

/**
 * The child process of the crash tests (started by dying-child.ts): the real app on the data folder
 * it is given, with the failing pack installed. The test hook: when DIES_AT names a credit command,
 * the process exits the moment that command is called, before anything of it reaches the store, as a
 * process killed there would. Prints one JSON line: its URL, and the account it opened when asked to.
 */
const failingPack = fileURLToPath(new URL('../../../support/packs/failing-pack/', import.meta.url));
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is not set');
const diesAt = process.env.DIES_AT;

const config = loadConfig({}, { dataDir, port: 0, logLevel: 'silent', poolSize: 1, packs: [failingPack] });
const services = await createServices(config);
if (diesAt === 'refund') services.credits.refund = async () => process.exit(DIED);
if (diesAt === 'release') services.credits.release = async () => process.exit(DIED);

const credits = process.env.OPEN_ACCOUNT ? Number(process.env.OPEN_ACCOUNT) : null;
const account = credits === null ? null : await createAccount(services, { tier: 'scale', credits });
if (account) await services.projections.waitFor(account.position);
const server = await listen(createApp(services), 0, '127.0.0.1');
const opened = account && { accountId: account.account_id, ...account.keys };
process.stdout.write(`${JSON.stringify({ url: server.url, account: opened })}\n`);

process.once('SIGTERM', () => {
  void server
    .close(1000)
    .then(() => services.close())
    .then(() => process.exit(0));
});
