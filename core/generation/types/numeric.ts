import { sampler, type Distribution } from '../random/distributions.js';
import type { Rng } from '../random/prng.js';
import { currencyByCode } from '../reference-data/currencies.js';
import { defineDataType, type JsonSchema } from './data-type.js';

/** Distribution parameters, shared by integers, decimals and money; min and max also clamp the draw. */
export interface NumericParams {
  distribution?: Distribution['distribution'];
  min?: number;
  max?: number;
  mean?: number;
  sd?: number;
  mu?: number;
  sigma?: number;
  xm?: number;
  alpha?: number;
}

export const DISTRIBUTION_KEYS = ['distribution', 'min', 'max', 'mean', 'sd', 'mu', 'sigma', 'xm', 'alpha'] as const;

const requiredFor = (name: string, keys: string[]): JsonSchema => ({
  if: { properties: { distribution: { const: name } }, required: ['distribution'] },
  then: { required: keys },
});

/**
 * The largest magnitude a drawn number takes: integers stay exact below 2^53 (about 9.007e15) and amounts keep their
 * minor units, so a number column's parameters are bounded by it and every draw is clamped to it.
 */
export const NUMERIC_LIMIT = 1e15;
/** A log-normal's median e^mu within the limit either way (e^34.5 is about 9.6e14). */
const MU_LIMIT = 34.5;
/** Spreads beyond this many units of log space are noise, not a distribution of amounts or counts. */
const SIGMA_LIMIT = 10;

const bounded = { type: 'number', minimum: -NUMERIC_LIMIT, maximum: NUMERIC_LIMIT } as const;

export const numericParamsSchema = {
  properties: {
    distribution: { enum: ['uniform', 'normal', 'lognormal', 'pareto'] },
    min: bounded,
    max: bounded,
    mean: bounded,
    sd: { type: 'number', minimum: 0, maximum: NUMERIC_LIMIT },
    mu: { type: 'number', minimum: -MU_LIMIT, maximum: MU_LIMIT },
    sigma: { type: 'number', minimum: 0, maximum: SIGMA_LIMIT },
    xm: { type: 'number', exclusiveMinimum: 0, maximum: NUMERIC_LIMIT },
    alpha: { type: 'number', exclusiveMinimum: 0 },
  },
  allOf: [
    requiredFor('uniform', ['min', 'max']),
    requiredFor('normal', ['mean', 'sd']),
    requiredFor('lognormal', ['mu', 'sigma']),
    requiredFor('pareto', ['xm', 'alpha']),
  ],
} as const;

/**
 * A draw from the parameters' distribution (uniform over [min, max] when none is named), clamped to
 * [min, max] and to the numeric limit: a heavy tail (a Pareto's small alpha) never writes Infinity.
 * A column with neither is computed by its table's generator (a running balance).
 */
export function numericSampler(params: NumericParams): (rng: Rng) => number {
  if (!params.distribution && (params.min === undefined || params.max === undefined)) return computedByGenerator;
  const draw = sampler({ ...params, distribution: params.distribution ?? 'uniform' } as Distribution);
  const min = Math.max(params.min ?? -NUMERIC_LIMIT, -NUMERIC_LIMIT);
  const max = Math.min(params.max ?? NUMERIC_LIMIT, NUMERIC_LIMIT);
  return (rng) => Math.min(max, Math.max(min, draw(rng)));
}

function computedByGenerator(): never {
  throw new Error(
    "a numeric column without a distribution or a [min, max] range must be set by the table's row generator",
  );
}

export const integer = defineDataType<NumericParams>({
  name: 'integer',
  description:
    'A whole number: uniform over [min, max], or normal, log-normal or Pareto (clamped to min and max when given); ' +
    "with neither, computed by the table's generator.",
  json_type: 'integer',
  params: numericParamsSchema,
  overridable: DISTRIBUTION_KEYS,
  example: 42,
  compile: (params) => {
    if (!params.distribution && params.min !== undefined && params.max !== undefined) {
      const { min, max } = params;
      return (rng) => rng.int(min, max);
    }
    const draw = numericSampler(params);
    return (rng) => Math.round(draw(rng));
  },
});

export interface DecimalParams extends NumericParams {
  scale?: number;
}

export const decimal = defineDataType<DecimalParams>({
  name: 'decimal',
  description:
    'A decimal number with `scale` digits after the point (default 2), from the same distributions as integers.',
  json_type: 'number',
  params: {
    ...numericParamsSchema,
    properties: { ...numericParamsSchema.properties, scale: { type: 'integer', minimum: 0, maximum: 10 } },
  },
  overridable: DISTRIBUTION_KEYS,
  example: 3.14,
  compile: (params) => {
    const draw = numericSampler(params);
    const factor = 10 ** (params.scale ?? 2);
    return (rng) => Math.round(draw(rng) * factor) / factor;
  },
});

export interface MoneyParams extends NumericParams {
  currency?: string;
  currency_column?: string;
}

/**
 * Money is drawn as a raw amount; the engine rounds it to the ISO 4217 minor units of the row's currency
 * (the `currency_column`, or the fixed `currency`) when the row is complete, so a generator may scale a
 * drawn amount (a fraudulent purchase at five times the usual) and still write a valid amount.
 */
export const money = defineDataType<MoneyParams>({
  name: 'money',
  description:
    'An amount of money, rounded to the ISO 4217 minor units of its currency (a fixed `currency`, ' +
    "or the row's `currency_column`); heavy-tailed distributions (log-normal, Pareto) fit real payments.",
  json_type: 'number',
  params: {
    ...numericParamsSchema,
    properties: {
      ...numericParamsSchema.properties,
      currency: { enum: [...currencyByCode.keys()] },
      currency_column: { type: 'string' },
    },
  },
  overridable: DISTRIBUTION_KEYS,
  example: 24.99,
  compile: (params) => numericSampler(params),
});
