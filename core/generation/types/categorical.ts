import { weightedPick } from '../random/distributions.js';
import { cardNetworks } from '../reference-data/card-networks.js';
import { countries } from '../reference-data/countries.js';
import { currencies } from '../reference-data/currencies.js';
import { merchantCategories, type MerchantCategory } from '../reference-data/merchant-categories.js';
import { defineDataType, type Sampler } from './data-type.js';

/** Weights are an object `{ value: weight }`: values it does not name are never drawn. */
type Weights = Record<string, number>;

const weightsSchema = {
  type: 'object',
  additionalProperties: { type: 'number', minimum: 0 },
  minProperties: 1,
} as const;

/** Picks among `values`, by `weights` when given, uniformly otherwise. */
export function pickAmong(values: readonly string[], weights: Weights | undefined): Sampler {
  if (!weights) return (rng) => rng.pick(values);
  const unknown = Object.keys(weights).filter((value) => !values.includes(value));
  if (unknown.length) throw new Error(`weights name values that do not exist: ${unknown.join(', ')}`);
  if (!values.some((value) => (weights[value] ?? 0) > 0)) throw new Error('weights give every value a zero weight');
  return weightedPick(
    values,
    values.map((value) => weights[value] ?? 0),
  );
}

export const enumeration = defineDataType<{ values: string[]; weights?: Weights }>({
  name: 'enum',
  description: 'One of a fixed list of `values`, drawn by `weights` ({ value: weight }) or uniformly.',
  json_type: 'string',
  params: {
    required: ['values'],
    properties: {
      values: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
      weights: weightsSchema,
    },
  },
  overridable: ['weights'],
  example: 'approved',
  compile: ({ values, weights }) => pickAmong(values, weights),
});

export const boolean = defineDataType<{ rate?: number }>({
  name: 'boolean',
  description: 'true with probability `rate` (default 0.5).',
  json_type: 'boolean',
  params: { properties: { rate: { type: 'number', minimum: 0, maximum: 1 } } },
  overridable: ['rate'],
  example: false,
  compile:
    ({ rate = 0.5 }) =>
    (rng) =>
      rng.next() < rate,
});

export const currency = defineDataType<{ codes?: string[]; weights?: Weights }>({
  name: 'currency',
  description: "An ISO 4217 alphabetic currency code; the catalog of currencies carries each one's minor units.",
  json_type: 'string',
  params: {
    properties: {
      codes: { type: 'array', items: { enum: currencies.map((c) => c.code) }, minItems: 1 },
      weights: weightsSchema,
    },
  },
  overridable: ['codes', 'weights'],
  example: 'EUR',
  compile: ({ codes = currencies.map((c) => c.code), weights }) => pickAmong(codes, weights),
});

export const country = defineDataType<{ codes?: string[]; weights?: Weights }>({
  name: 'country',
  description: 'An ISO 3166-1 alpha-2 country code.',
  json_type: 'string',
  params: {
    properties: {
      codes: { type: 'array', items: { enum: countries.map((c) => c.alpha2) }, minItems: 1 },
      weights: weightsSchema,
    },
  },
  overridable: ['codes', 'weights'],
  example: 'GB',
  compile: ({ codes = countries.map((c) => c.alpha2), weights }) => pickAmong(codes, weights),
});

const groups = [...new Set(merchantCategories.map((category) => category.group))];

export const mcc = defineDataType<{ groups?: MerchantCategory['group'][] }>({
  name: 'mcc',
  description:
    'An ISO 18245 merchant category code, weighted by its share of everyday card spend (optionally only from some ' +
    '`groups`).',
  json_type: 'string',
  params: { properties: { groups: { type: 'array', items: { enum: groups }, minItems: 1 } } },
  overridable: ['groups'],
  example: '5411',
  compile: ({ groups: wanted }) => {
    const chosen = merchantCategories.filter((category) => !wanted || wanted.includes(category.group));
    return weightedPick(
      chosen.map((category) => category.mcc),
      chosen.map((category) => category.weight),
    );
  },
});

export const cardNetwork = defineDataType<{ networks?: string[] }>({
  name: 'card_network',
  description: 'A card network (visa, mastercard, amex, discover, jcb, unionpay), weighted by market share.',
  json_type: 'string',
  params: {
    properties: { networks: { type: 'array', items: { enum: cardNetworks.map((n) => n.name) }, minItems: 1 } },
  },
  overridable: ['networks'],
  example: 'visa',
  compile: ({ networks }) => {
    const chosen = cardNetworks.filter((network) => !networks || networks.includes(network.name));
    return weightedPick(
      chosen.map((network) => network.name),
      chosen.map((network) => network.share),
    );
  },
});
