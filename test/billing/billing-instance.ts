import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../api/app.js';
import { listen } from '../../api/server.js';
import type { Clock } from '../../core/clock.js';
import { loadConfig } from '../../core/config.js';
import { loadPricing } from '../../core/billing/pricing.js';
import type { PaymentProvider } from '../../core/billing/payment-provider.js';
import { createServices, type Services } from '../../core/services.js';
import { TIERS } from '../../core/domain/account/profile.js';

export interface BillingInstance {
  url: string;
  services: Services;
  /** Stops the server and the services; removes the data directory if this instance made it. */
  close(): Promise<void>;
}

/**
 * The real app, as test/support/app.ts starts it, with what billing tests need besides: the payment
 * provider given (the one that outlives a crash), and every tier's rate limit lifted, so that a test
 * walking a developer account through its billing meets its fees, not its rate limit.
 */
export async function startBillingInstance(options: { clock: Clock; payments?: PaymentProvider; dataDir?: string }): Promise<BillingInstance> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'finsynth-billing-')));
  const config = loadConfig({}, { dataDir, port: 0, logLevel: 'silent', poolSize: 1 });
  const pricing = loadPricing();
  for (const tier of TIERS) pricing.tiers[tier].rate_limit_per_s = 10_000;
  const services = await createServices(config, { clock: options.clock, payments: options.payments, pricing });
  const server = await listen(createApp(services), 0);
  return {
    url: server.url,
    services,
    async close() {
      await server.close(1000);
      await services.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
