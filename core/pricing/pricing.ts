import { readFileSync } from 'node:fs';
import { createAjv } from '../json-schema.js';
import { parse } from 'yaml';
import { TIERS, type Tier } from './tiers.js';
import { ownMember } from '../own-member.js';

export interface TierPrice {
  monthly_price: number;
  included_credits: number;
  rate_limit_per_s: number;
  /** null: unlimited. */
  concurrent_jobs: number | null;
}

export interface CreditPack {
  credits: number;
  price: number;
}

export interface Pricing {
  currency: string;
  tiers: Record<Tier, TierPrice>;
  credit_packs: Record<string, CreditPack>;
}

/** The pack of that name; never a member every object has (`constructor`, `__proto__`): names come from requests. */
export function creditPack(pricing: Pricing, name: string): CreditPack | undefined {
  return ownMember(pricing.credit_packs, name);
}

const positiveInteger = { type: 'integer', minimum: 0 };
const schema = {
  type: 'object',
  required: ['currency', 'tiers', 'credit_packs'],
  additionalProperties: false,
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    tiers: {
      type: 'object',
      required: [...TIERS],
      additionalProperties: false,
      properties: Object.fromEntries(
        TIERS.map((tier) => [
          tier,
          {
            type: 'object',
            required: ['monthly_price', 'included_credits', 'rate_limit_per_s', 'concurrent_jobs'],
            additionalProperties: false,
            properties: {
              monthly_price: { type: 'number', minimum: 0 },
              included_credits: positiveInteger,
              rate_limit_per_s: { type: 'integer', minimum: 1 },
              concurrent_jobs: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
            },
          },
        ]),
      ),
    },
    credit_packs: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['credits', 'price'],
        additionalProperties: false,
        properties: { credits: { type: 'integer', minimum: 1 }, price: { type: 'number', minimum: 0 } },
      },
    },
  },
};

const defaultPricingFile = new URL('./pricing.yaml', import.meta.url);

/** Reads and validates a pricing file; a malformed one stops the service at start rather than mispricing. */
export function loadPricing(file: string | URL = defaultPricingFile): Pricing {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  const ajv = createAjv();
  // The schema describes Pricing: the compiled validator is a type guard for it.
  const validate = ajv.compile<Pricing>(schema);
  if (!validate(document))
    throw new Error(`pricing file ${String(file)} is invalid: ${ajv.errorsText(validate.errors)}`);
  return document;
}
