import type { Clock } from '../../../core/clock.js';
import type { PaymentProvider } from '../../../core/payments/payment-provider.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { pricingWithoutRateLimits } from '../../support/pricing.js';

export type BillingInstance = TestApp;

/**
 * The real app (startTestApp), with what billing tests need besides: the payment
 * provider given (the one that outlives a crash), and every tier's rate limit lifted, so that a test
 * walking a developer account through its billing meets its fees, not its rate limit.
 */
export function startBillingInstance(options: {
  clock: Clock;
  payments?: PaymentProvider;
  dataDir?: string;
}): Promise<BillingInstance> {
  return startTestApp({
    clock: options.clock,
    dataDir: options.dataDir,
    config: { poolSize: 1 },
    services: { payments: options.payments, pricing: pricingWithoutRateLimits() },
  });
}
