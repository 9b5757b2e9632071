import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { Pricing } from '../pricing/pricing.js';
import type { CreditsService } from './credits-service.js';

/** What opening an account and issuing its keys need of the running service; the composition root provides it. */
export interface AccountServices {
  config: { keyPrefix: string };
  clock: Clock;
  pricing: Pricing;
  commands: CommandHandler;
  credits: CreditsService;
}
